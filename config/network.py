"""This machine on the home network: its LAN addresses (for the phones' join links and the hosts
``make run`` accepts) and whether a request comes from the machine itself.

Nothing here sends a packet: ``connect`` on a UDP socket only asks the kernel which local address
would route there."""

from __future__ import annotations

import ipaddress
import socket
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest
from django.http.request import split_domain_port

# Private destinations to ask the routing table about (no packet is sent to them).
PROBES = ("10.255.255.255", "192.168.255.255", "172.31.255.255")
LOOPBACK_HOSTS = {"localhost", "127.0.0.1", "[::1]", "::1"}


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return ip.version == 4 and ip.is_private and not (ip.is_loopback or ip.is_link_local or ip.is_unspecified)


def _routed_address(probe: str) -> str | None:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect((probe, 1))
            return s.getsockname()[0]
    except OSError:
        return None


@lru_cache(maxsize=1)
def lan_addresses() -> tuple[str, ...]:
    """This machine's private IPv4 addresses, the one of the default route first."""
    found: list[str] = []
    for probe in PROBES:
        address = _routed_address(probe)
        if address and _usable(address) and address not in found:
            found.append(address)
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    for *_, sockaddr in infos:
        address = str(sockaddr[0])
        if _usable(address) and address not in found:
            found.append(address)
    return tuple(found)


def is_loopback_host(host: str) -> bool:
    """``host`` (a Host header without its port) names this machine's loopback."""
    return host.lower() in LOOPBACK_HOSTS


def request_from_this_machine(request) -> bool:
    """The request's peer (REMOTE_ADDR, never a header the client writes) is this machine."""
    try:
        return ipaddress.ip_address(request.META.get("REMOTE_ADDR", "")).is_loopback
    except ValueError:
        return False


def phone_base_url(request: HttpRequest) -> str:
    """Where phones reach this server: ``CHRONICLE_PUBLIC_URL`` when set; else the address the host
    browses with, unless that is this machine's loopback (a phone cannot open "localhost"): then
    this machine's LAN address, on the same port."""
    if settings.CHRONICLE_PUBLIC_URL:
        return settings.CHRONICLE_PUBLIC_URL
    host = request.get_host()
    domain, port = split_domain_port(host)
    lan = lan_addresses()
    if is_loopback_host(domain or host) and lan:
        return f"{request.scheme}://{lan[0]}{':' + port if port else ''}"
    return f"{request.scheme}://{host}"


PHONES_JOIN = (
    "Chronicle: open http://localhost:{port}/ on this machine; phones on this network join at {phones}"
)
NO_LAN = "no LAN address found: set CHRONICLE_PUBLIC_URL"


def serving_message(port: int) -> str:
    """What ``make run`` prints as it starts: where this machine and the phones open Chronicle."""
    lan = lan_addresses()
    phones = f"http://{lan[0]}:{port}/" if lan else NO_LAN
    return PHONES_JOIN.format(port=port, phones=phones)


if __name__ == "__main__":  # make run: python -m config.network PORT
    import sys

    print(serving_message(int(sys.argv[1])))
