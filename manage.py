#!/usr/bin/env python
import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if sys.argv[1:2] == ["serve"]:
        # The rules run compiled (games/speedups.py): built before Django imports them, once
        # per change to their source (about 20 seconds).
        from games.compile_rules import ensure_built

        print(ensure_built())
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
