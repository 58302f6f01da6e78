"""One call of the ``rnglab`` command in-process, as the CLI tests make it: ``(status, stdout, stderr)``."""

from rnglab.cli import main


def run(args, capsys):
    status = main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err
