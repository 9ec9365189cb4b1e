# `pmusim serve` driven by a client that is not C++ (docs/sequence-language.md, docs/python.md).
pmusim_script_test("serve: python client walks registers" tests/serve/serve_client.py $<TARGET_FILE:pmusim>)
