"""The JUnit shape Jenkins' junit step and GitLab's artifacts:reports:junit read: <testsuites>
holding <testsuite name tests failures errors time>, each holding <testcase classname name time>
with at most one <failure> or <error> child (message and type attributes). The counts must
match the testcases. `time` is host wall-clock seconds; the simulated time is the property
`simulated_seconds` of every testsuite and testcase (<properties>, as pytest writes them). Returns the parsed root; raises AssertionError on any deviation."""
import xml.etree.ElementTree as ET


def _number(element, attribute):
    value = element.get(attribute)
    assert value is not None, f"<{element.tag}> lacks {attribute}"
    return float(value)


def check_junit(path):
    root = ET.parse(path).getroot()
    assert root.tag == "testsuites", root.tag
    totals = {"tests": 0, "failures": 0, "errors": 0}
    for suite in root:
        assert suite.tag == "testsuite", suite.tag
        assert suite.get("name"), "a testsuite without a name"
        assert suite.find("properties/property[@name='simulated_seconds']") is not None, "no simulated_seconds"
        cases = [c for c in suite if c.tag != "properties"]
        assert all(c.tag == "testcase" for c in cases), [c.tag for c in cases]
        failures = errors = 0
        for case in cases:
            assert case.get("name") and case.get("classname") == suite.get("name"), case.attrib
            assert _number(case, "time") >= 0
            sim = case.find("properties/property[@name='simulated_seconds']")
            assert sim is not None and float(sim.get("value")) >= 0, case.attrib
            children = [c for c in case if c.tag != "properties"]
            assert len(children) <= 1 and all(c.tag in ("failure", "error") for c in children), children
            for c in children:
                assert c.get("message") and c.get("type"), c.attrib
            failures += sum(c.tag == "failure" for c in children)
            errors += sum(c.tag == "error" for c in children)
        assert int(suite.get("tests")) == len(cases), (suite.attrib, len(cases))
        assert int(suite.get("failures")) == failures, suite.attrib
        assert int(suite.get("errors")) == errors, suite.attrib
        assert _number(suite, "time") >= 0
        totals["tests"] += len(cases)
        totals["failures"] += failures
        totals["errors"] += errors
    for k, v in totals.items():
        assert int(root.get(k)) == v, (k, root.attrib)
    return root
