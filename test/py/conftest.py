"""pytest hooks shared by the mlax suite."""


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    # Calls tried by the property tests (test_properties.py), per property.
    calls = getattr(config, "_mlax_property_calls", None)
    if calls:
        tr = terminalreporter
        tr.write_sep("-", f"mlax property tests: {sum(calls.values())} calls tried")
        for name, n in sorted(calls.items()):
            tr.write_line(f"  {n:6d}  {name}")
