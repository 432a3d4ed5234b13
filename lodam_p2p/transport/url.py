"""Broker URLs: ``mqtt://[user:pass@]host[:port]`` and ``mqtts://…[?ca=FILE&cert=FILE&key=FILE]``.

``mqtt`` is plain TCP (default port 1883), ``mqtts`` is TLS (default port 8883). With
``mqtts`` the broker's certificate is checked against ``ca`` (a PEM file) or, without
it, against the system's trust store; ``cert`` and ``key`` (both or neither) give a
client certificate. User name and password may be percent-encoded. IPv6 hosts go in
brackets: ``mqtt://[::1]:1883``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from urllib.parse import parse_qsl, quote, unquote, urlsplit

#: Default port per scheme.
DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883}
_QUERY_KEYS = {"ca": "ca_file", "cert": "cert_file", "key": "key_file"}


class BadBrokerUrl(ValueError):
    """A broker URL that cannot be used; the message says why."""


@dataclass(frozen=True, slots=True)
class BrokerUrl:
    """A parsed broker URL. ``str()`` gives it back (password included); use
    :meth:`redacted` in messages and logs."""

    scheme: str
    host: str
    port: int
    username: str | None = None
    password: str | None = None
    ca_file: str | None = None
    cert_file: str | None = None
    key_file: str | None = None

    @property
    def tls(self) -> bool:
        """Whether the connection uses TLS."""
        return self.scheme == "mqtts"

    @classmethod
    def parse(cls, text: str) -> BrokerUrl:
        """Parse ``text``; raise :class:`BadBrokerUrl` with the reason if it is unusable."""
        try:
            parts = urlsplit(text.strip())
            port = parts.port
        except ValueError as err:
            raise BadBrokerUrl(f"bad broker URL {text!r}: {err}") from None
        if parts.scheme not in DEFAULT_PORTS:
            raise BadBrokerUrl(f"bad broker URL {text!r}: scheme must be mqtt:// or mqtts://")
        if not parts.hostname:
            raise BadBrokerUrl(f"bad broker URL {text!r}: no host")
        if parts.path not in ("", "/") or parts.fragment:
            raise BadBrokerUrl(f"bad broker URL {text!r}: unexpected path or fragment")
        files = _query_files(text, parts.query, parts.scheme)
        if port == 0:
            raise BadBrokerUrl(f"bad broker URL {text!r}: port 0")
        username = unquote(parts.username) if parts.username is not None else None
        password = unquote(parts.password) if parts.password is not None else None
        if password is not None and not username:
            raise BadBrokerUrl(f"bad broker URL {text!r}: a password needs a user name")
        port = port or DEFAULT_PORTS[parts.scheme]
        return cls(parts.scheme, parts.hostname, port, username or None, password, **files)

    def __str__(self) -> str:
        return self._format(self.password)

    def without_login(self) -> BrokerUrl:
        """The same broker with no user name or password (safe to advertise)."""
        return replace(self, username=None, password=None)

    def redacted(self) -> str:
        """The URL with the password replaced by ``***``."""
        return self._format(None if self.password is None else "***")

    def _format(self, password: str | None) -> str:
        login = ""
        if self.username is not None:
            login = quote(self.username, safe="")
            if password is not None:
                login += ":" + (password if password == "***" else quote(password, safe=""))
            login += "@"
        host = f"[{self.host}]" if ":" in self.host else self.host
        query = "&".join(
            f"{key}={quote(value)}"
            for key, attr in _QUERY_KEYS.items()
            if (value := getattr(self, attr)) is not None
        )
        return f"{self.scheme}://{login}{host}:{self.port}" + (f"?{query}" if query else "")


def _query_files(text: str, query: str, scheme: str) -> dict[str, str]:
    """The ``ca``/``cert``/``key`` options of the query string, checked."""
    try:
        pairs = parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query))
    except ValueError:
        raise BadBrokerUrl(f"bad broker URL {text!r}: malformed query") from None
    files: dict[str, str] = {}
    for key, value in pairs:
        if key not in _QUERY_KEYS:
            raise BadBrokerUrl(f"bad broker URL {text!r}: unknown option {key!r}")
        if not value or _QUERY_KEYS[key] in files:
            raise BadBrokerUrl(f"bad broker URL {text!r}: option {key!r} empty or repeated")
        files[_QUERY_KEYS[key]] = value
    if files and scheme != "mqtts":
        raise BadBrokerUrl(f"bad broker URL {text!r}: ca/cert/key need mqtts://")
    if ("cert_file" in files) != ("key_file" in files):
        raise BadBrokerUrl(f"bad broker URL {text!r}: cert and key go together")
    return files
