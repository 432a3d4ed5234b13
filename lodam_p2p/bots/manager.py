"""Finding bot plugins: the entry-point group and the local plugin folders.

Two sources, loaded in this order into one :class:`pluggy.PluginManager`:

1. **Installed packages** that declare an entry point in the group
   ``lodam_p2p.bots`` (the bundled ``random`` and ``heuristic`` bots are declared there
   in this project's own ``pyproject.toml``, exactly like a third-party package)::

       [project.entry-points."lodam_p2p.bots"]
       mybot = "mypackage.mybot"

2. **Local folders of plugin files**: every ``*.py`` file (not starting with ``_``)
   directly inside each folder is imported as a module and registered. The folders
   are, in order: those given on the command line (``--plugin-dir``), those listed in
   ``$LODAM_PLUGIN_PATH`` (separated by ``os.pathsep``), and
   ``$XDG_CONFIG_HOME/lodam/plugins`` (``~/.config/lodam/plugins`` by default). A
   folder that does not exist is skipped, except one named on the command line.

``check_pending()`` runs after loading, so an implementation whose name matches no
hook (a typo such as ``lodam_bot_type``) is an error rather than silently ignored.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import ModuleType

import pluggy

from lodam_p2p.bots import hookspec
from lodam_p2p.bots.api import BotError

#: The entry-point group bot packages declare.
ENTRY_POINT_GROUP = "lodam_p2p.bots"
#: Environment variable with extra plugin folders (``os.pathsep`` separated).
PLUGIN_PATH_ENV = "LODAM_PLUGIN_PATH"


class PluginLoadError(BotError):
    """A plugin could not be loaded: unreadable file, import error, unknown hook."""


def user_plugin_dir() -> Path:
    """``$XDG_CONFIG_HOME/lodam/plugins``, by default ``~/.config/lodam/plugins``."""
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "lodam" / "plugins"


def default_plugin_dirs() -> list[Path]:
    """The folders from ``$LODAM_PLUGIN_PATH``, then the per-user folder."""
    listed = os.environ.get(PLUGIN_PATH_ENV, "")
    dirs = [Path(part).expanduser() for part in listed.split(os.pathsep) if part]
    return [*dirs, user_plugin_dir()]


def new_plugin_manager() -> pluggy.PluginManager:
    """An empty manager that knows the bot hooks (tests register plugins by hand)."""
    manager = pluggy.PluginManager(hookspec.PROJECT)
    manager.add_hookspecs(hookspec)
    return manager


def load_plugins(
    plugin_dirs: Sequence[Path] = (),
    *,
    entry_points: bool = True,
    default_dirs: bool = True,
) -> pluggy.PluginManager:
    """A plugin manager with every bot plugin found, checked with ``check_pending()``.

    ``plugin_dirs`` are the folders named on the command line (they must exist);
    ``entry_points`` and ``default_dirs`` switch off the other sources (for tests).
    """
    manager = new_plugin_manager()
    if entry_points:
        try:
            manager.load_setuptools_entrypoints(ENTRY_POINT_GROUP)
        except Exception as err:  # an installed package's broken plugin: one clear line
            raise PluginLoadError(
                f"an entry point of group {ENTRY_POINT_GROUP} failed to load: "
                f"{type(err).__name__}: {err}"
            ) from None
    for folder in plugin_dirs:
        if not folder.is_dir():
            raise PluginLoadError(f"plugin folder {folder} does not exist")
    folders = [*plugin_dirs, *(default_plugin_dirs() if default_dirs else [])]
    for folder in _unique(folders):
        for path in plugin_files(folder):
            register_file(manager, path)
    try:
        manager.check_pending()
    except pluggy.PluginValidationError as err:
        raise PluginLoadError(f"plugin {plugin_source(manager, err.plugin)}: {err}") from None
    return manager


def _unique(folders: Iterable[Path]) -> list[Path]:
    seen: set[Path] = set()
    kept = []
    for folder in folders:
        key = folder.resolve()
        if key not in seen:
            seen.add(key)
            kept.append(folder)
    return kept


def plugin_files(folder: Path) -> list[Path]:
    """The plugin files of ``folder``: ``*.py`` not starting with ``_``, sorted."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*.py") if not p.name.startswith("_") and p.is_file())


def register_file(manager: pluggy.PluginManager, path: Path) -> ModuleType:
    """Import the plugin file ``path`` as a fresh module and register it."""
    digest = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:12]
    module_name = f"lodam_local_plugin_{path.stem.replace('-', '_')}_{digest}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise PluginLoadError(f"plugin file {path}: cannot be imported")
    module = importlib.util.module_from_spec(spec)
    module.__lodam_source__ = str(path)  # type: ignore[attr-defined]
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as err:  # any failure of foreign code becomes one clear line
        del sys.modules[module_name]
        raise PluginLoadError(f"plugin file {path}: {type(err).__name__}: {err}") from None
    if manager.is_registered(module):  # pragma: no cover - a fresh module never is
        return module
    try:
        manager.register(module, name=str(path))
    except (pluggy.PluginValidationError, ValueError) as err:
        raise PluginLoadError(f"plugin file {path}: {err}") from None
    return module


def plugin_source(manager: pluggy.PluginManager, plugin: object) -> str:
    """Where ``plugin`` came from, for people: a file path or an entry point."""
    local = getattr(plugin, "__lodam_source__", None)
    if isinstance(local, str):
        return local
    for loaded, dist in manager.list_plugin_distinfo():
        if loaded is plugin:
            name = manager.get_name(plugin) or "?"
            return f"entry point {name} ({dist.project_name} {dist.version})"
    return manager.get_name(plugin) or repr(plugin)
