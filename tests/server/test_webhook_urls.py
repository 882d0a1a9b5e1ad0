"""A webhook's URL checked before it is kept (server/webhooks.py): https, no
credentials, bounded, its kind told or guessed, and a host of the public
Internet, by name: an IP address, or a name any of whose addresses is in a
private network, is refused. Names are resolved by a stand-in resolver
(the tests need no network), ``localhost`` by the machine's own."""

from __future__ import annotations

import socket
from typing import Any

import pytest

from fudgedice.server.problems import Problem
from fudgedice.server.webhooks import MAX_URL, checked, public

DISCORD = "https://discord.com/api/webhooks/123456789/abcDEF-token"
SLACK = "https://hooks.slack.com/services/T000/B000/XXXX"


def resolver(*addresses: str) -> Any:
    """A getaddrinfo that answers ``addresses`` for every name."""

    def resolve(host: str, port: int, **_: Any) -> list[tuple[Any, ...]]:
        return [
            (socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port))
            for a in addresses
        ]

    return resolve


PUBLIC = resolver("162.159.135.232")


def refused(url: str, status: int = 422, **options: Any) -> str:
    with pytest.raises(Problem) as raised:
        checked(url, options.pop("kind", None), resolve=options.pop("resolve", PUBLIC), **options)
    assert raised.value.status == status, raised.value.error
    return raised.value.error


def test_discord_and_slack_urls_are_kept_with_their_kind() -> None:
    assert checked(DISCORD, None, resolve=PUBLIC).kind == "discord"
    assert checked(SLACK, None, resolve=PUBLIC).kind == "slack"
    hook = checked("https://chat.example.org/hooks/abc", "slack", resolve=PUBLIC)
    assert (hook.kind, hook.host) == ("slack", "chat.example.org")
    assert hook.shown() == {"set": True, "kind": "slack", "host": "chat.example.org"}
    assert "say which kind" in refused("https://chat.example.org/hooks/abc")
    # discord.com, but not one of its webhooks: its kind is not guessed
    assert "say which kind" in refused("https://discord.com/channels/1/2")


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("http://discord.com/api/webhooks/1/x", "https://"),
        ("ftp://discord.com/api/webhooks/1/x", "https://"),
        ("discord.com/api/webhooks/1/x", "https://"),
        ("https://user:secret@discord.com/api/webhooks/1/x", "no user name or password"),
        ("https://user@discord.com/api/webhooks/1/x", "no user name or password"),
        ("https:///api/webhooks/1/x", "no host"),
        ("https://discord.com:99999/api/webhooks/1/x", "cannot be read"),
        ("https://discord.com/api/webhooks/1/x y", "no spaces"),
        ("https://127.0.0.1/hook", "not an IP address"),
        ("https://[::1]/hook", "not an IP address"),
        ("https://10.0.0.7/hook", "not an IP address"),
        ("https://162.159.135.232/hook", "not an IP address"),
    ],
)
def test_what_is_no_public_https_url_by_name_is_refused(url: str, said: str) -> None:
    assert said in refused(url, kind="discord")


@pytest.mark.parametrize(
    "address",
    ["127.0.0.1", "10.1.2.3", "172.16.0.9", "192.168.1.1", "169.254.169.254", "100.64.0.1",
     "0.0.0.0", "224.0.0.251", "240.0.0.1", "::1", "fe80::1", "fc00::1", "::ffff:10.0.0.1",
     "ff02::1"],
)  # fmt: skip
def test_a_name_that_resolves_into_a_private_network_is_refused(address: str) -> None:
    assert not public(address)
    error = refused("https://hooks.example.org/x", kind="slack", resolve=resolver(address))
    assert "private network" in error
    # one private address among public ones is enough to refuse
    mixed = resolver("162.159.135.232", address)
    assert "private network" in refused("https://hooks.example.org/x", kind="slack", resolve=mixed)


def test_localhost_and_an_unknown_name_are_refused() -> None:
    assert "private network" in refused("https://localhost:8443/hook", kind="discord",
                                        resolve=socket.getaddrinfo)  # fmt: skip

    def unknown(*_: Any, **__: Any) -> list[tuple[Any, ...]]:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    assert "cannot be found" in refused("https://nowhere.invalid/x", kind="slack", resolve=unknown)


def test_a_url_too_long_is_413() -> None:
    long = DISCORD + "x" * (MAX_URL - len(DISCORD) + 1)
    assert "at most" in refused(long, 413)
    assert checked(long[:MAX_URL], None, resolve=PUBLIC).kind == "discord"


def test_allowing_local_webhooks_allows_http_and_local_hosts() -> None:
    def never(*_: Any, **__: Any) -> list[tuple[Any, ...]]:
        raise AssertionError("a local webhook's host is not looked up")

    hook = checked("http://127.0.0.1:8123/hook", "discord", allow_local=True, resolve=never)
    assert (hook.url, hook.host) == ("http://127.0.0.1:8123/hook", "127.0.0.1")
    # credentials and other schemes stay refused
    error = refused("http://a:b@127.0.0.1/x", kind="slack", allow_local=True, resolve=never)
    assert "no user name" in error
    assert "https://" in refused("ftp://127.0.0.1/x", kind="slack", allow_local=True)
