"""A PEP 517 build backend for this one package, kept beside it so that installing needs no download.

It builds a pure-Python wheel (and an editable wheel) from `pyproject.toml` and `src/`, following the wheel
format of PEP 427 and the core metadata of PEP 566; nothing else is supported, and an unknown field in the
`[project]` table is refused loudly rather than dropped.
See https://peps.python.org/pep-0517/#in-tree-build-backends.
"""
import base64
import hashlib
import io
import os
import tarfile
import tomllib
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KNOWN = {"name", "version", "description", "readme", "license", "requires-python", "dependencies",
         "optional-dependencies", "entry-points"}


def _project():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    unknown = set(project) - KNOWN
    if unknown:
        raise ValueError(f"_build/backend.py does not handle [project] fields {sorted(unknown)}")
    return project


def _dist_name(project):
    return project["name"].replace("-", "_")


def _metadata(project):
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
        f"Summary: {project.get('description', '')}",
        f"License: {project.get('license', {}).get('text', '')}",
        f"Requires-Python: {project.get('requires-python', '')}",
    ]
    lines += [f"Requires-Dist: {d}" for d in project.get("dependencies", [])]
    for extra, deps in project.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {d}; extra == "{extra}"' for d in deps]
    readme = project.get("readme")
    body = ""
    if readme:
        lines.append("Description-Content-Type: text/markdown")
        with open(os.path.join(ROOT, readme), encoding="utf-8") as f:
            body = "\n" + f.read()
    return "\n".join(lines) + "\n" + body


def _entry_points(project):
    out = []
    for group, entries in project.get("entry-points", {}).items():
        out.append(f"[{group}]")
        out += [f"{k} = {v}" for k, v in entries.items()]
        out.append("")
    return "\n".join(out)


def _sources():
    src = os.path.join(ROOT, "src")
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        for name in sorted(filenames):
            if name.endswith(".py") or name == "py.typed":
                full = os.path.join(dirpath, name)
                yield os.path.relpath(full, src).replace(os.sep, "/"), full


def _write_wheel(wheel_directory, files):
    """files: [(archive name, bytes)] without the dist-info RECORD, which is added here."""
    project = _project()
    base = f"{_dist_name(project)}-{project['version']}"
    info = f"{base}.dist-info"
    files = list(files) + [
        (f"{info}/METADATA", _metadata(project).encode()),
        (f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: pytest-spritzer _build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"),
        (f"{info}/entry_points.txt", _entry_points(project).encode()),
    ]
    record = []
    for name, data in files:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    record.append(f"{info}/RECORD,,")
    filename = f"{base}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w", zipfile.ZIP_DEFLATED) as whl:
        for name, data in files:
            whl.writestr(name, data)
        whl.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
    return filename


def get_requires_for_build_wheel(config_settings=None):
    return []


get_requires_for_build_sdist = get_requires_for_build_wheel
get_requires_for_build_editable = get_requires_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    files = []
    for rel, full in _sources():
        with open(full, "rb") as f:
            files.append((rel, f.read()))
    return _write_wheel(wheel_directory, files)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """An editable install: a .pth file that puts src/ on sys.path (PEP 660)."""
    project = _project()
    pth = (os.path.join(ROOT, "src") + "\n").encode()
    return _write_wheel(wheel_directory, [(f"__editable__.{_dist_name(project)}.pth", pth)])


def build_sdist(sdist_directory, config_settings=None):
    project = _project()
    base = f"{_dist_name(project)}-{project['version']}"
    filename = f"{base}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz") as tar:
        for rel in ["pyproject.toml", "README.md", "_build/backend.py"]:
            tar.add(os.path.join(ROOT, rel), f"{base}/{rel}")
        for rel, full in _sources():
            tar.add(full, f"{base}/src/{rel}")
        meta = _metadata(project).encode()
        tinfo = tarfile.TarInfo(f"{base}/PKG-INFO")
        tinfo.size = len(meta)
        tar.addfile(tinfo, io.BytesIO(meta))
    return filename
