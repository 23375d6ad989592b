"""`tests/project` is a user's project that the plugin's own tests run in a pytest of its own (with its environment:
SPRITZER_PROBE_FILE, PROJECT_MODE); a plain `pytest` here must not collect it as tests of its own."""
import os

collect_ignore = [] if os.environ.get("SPRITZER_PROBE_FILE") else ["project"]
