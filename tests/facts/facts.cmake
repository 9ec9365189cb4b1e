# The facts' sources (docs/facts.md): every Linux citation against Debian's linux-source-6.1 (the
# cited files extracted once into the build folder), and every row's citation form.
set(PMUSIM_LINUX_SOURCE_TARBALL /usr/src/linux-source-6.1.tar.xz CACHE FILEPATH
    "Debian's linux-source-6.1 tarball the facts' Linux citations are checked against")
# The CoreSight PMU driver (6.2) and the HCR_EL2 sysreg block came after 6.1: Debian's
# linux-source-6.12 holds them.
set(PMUSIM_LINUX_LATER_TARBALL /usr/src/linux-source-6.12.tar.xz CACHE FILEPATH
    "a later linux-source tarball for the citations of files 6.1 does not have")
set(linux_sources --linux ${PMUSIM_LINUX_SOURCE_TARBALL} --linux-later ${PMUSIM_LINUX_LATER_TARBALL}
                  --cache ${CMAKE_BINARY_DIR}/linux-sources)
# Both facts tests read the cited files that this fixture extracts, in one pass over each tarball.
pmusim_script_test("facts: extract the cited Linux files"
  scripts/check-fact-sources.py ${linux_sources} --prefetch-only
  TIMEOUT 600 PROPERTIES FIXTURES_SETUP pmusim_linux_sources)
pmusim_script_test("facts: every Linux citation agrees with Debian's linux-source-6.1 and 6.12"
  scripts/check-fact-sources.py ${linux_sources} --min-linux-checked 1005 --require-linux
  TIMEOUT 600 PROPERTIES FIXTURES_REQUIRED pmusim_linux_sources)
pmusim_script_test("facts: the source check fails on a mis-cited Linux row"
  tests/facts/planted/check_planted.py ${PMUSIM_LINUX_SOURCE_TARBALL} ${CMAKE_BINARY_DIR}/linux-sources
  TIMEOUT 600 PROPERTIES FIXTURES_REQUIRED pmusim_linux_sources)
