"""The whole report (rnglab.report.build_report) as a reader's system sees it: a folder with the umask's permissions.

Each section's own tests are in ``tests/report/test_<section>.py``."""

import os
import stat

import pytest

from rnglab.report import build_report
from rnglab.report.document import Section


def _tiny(context):
    return Section("Tiny", ["text"], "a summary")


@pytest.mark.parametrize(("umask", "folder", "file"), [(0o022, 0o755, 0o644), (0o077, 0o700, 0o600)])
def test_the_report_and_audit_folders_get_the_umasks_permissions(tmp_path, umask, folder, file):
    # rnglab-report/ was drwx------ under umask 022: tempfile.mkdtemp's 0700, kept when moved into place.
    from rnglab.audit.render import check_reports

    previous = os.umask(umask)
    try:
        build_report(tmp_path / "r", sections=[_tiny])
        check_reports(tmp_path / "a")
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "r").stat().st_mode) == folder
    assert stat.S_IMODE((tmp_path / "r" / "report.md").stat().st_mode) == file
    assert stat.S_IMODE((tmp_path / "a").stat().st_mode) == folder
