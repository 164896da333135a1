"""Where every MultiWorkerMirroredStrategy worker listens, for TF_CONFIG.

Each worker asks the kernel for a free port (bind to port 0) and the workers exchange them
once; no port is derived from MASTER_PORT, because a neighbour of MASTER_PORT can be taken by
anything on the host (TensorFlow's gRPC server refuses a shared port, so the reservation cannot
be held until it binds). The exchange: rank 0 listens, every other rank connects and says
which port it reserved; rank 0 sends everyone the list.

- One host (``LOCAL_WORLD_SIZE == WORLD_SIZE``): the meeting point is an abstract Unix socket
  named after the user, MASTER_ADDR and MASTER_PORT (Linux); MASTER_PORT itself stays with the
  launcher (torchrun's agent holds it). Every worker is addressed as MASTER_ADDR:port.
- Several hosts: the launcher's rank variables do not say each worker's host, so the workers
  meet at MASTER_ADDR:MASTER_PORT over TCP (free there: no launcher of these apps binds it when
  ranks span nodes), and rank 0 records the address it sees each rank connect from.

No framework is imported here.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import sys
import time

from workloads.runtime.ranks import DistEnv


def _host_port(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("", 0))
        return int(s.getsockname()[1])


def _unix_connect(name: str, timeout: float) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        sock.connect(name)
    except OSError:
        sock.close()
        raise
    return sock


def _connect(address: tuple[str, int] | str, deadline: float) -> socket.socket:
    """Connect to a TCP ``(host, port)`` or an abstract Unix socket name, retrying until
    ``deadline`` while rank 0 is not listening yet."""
    while True:
        timeout = max(deadline - time.time(), 1)
        try:
            if isinstance(address, str):
                return _unix_connect(address, timeout)
            return socket.create_connection(address, timeout=timeout)
        except OSError:
            if time.time() > deadline:
                raise
            time.sleep(0.2)


def _recv_line(conn: socket.socket) -> bytes:
    data = b""
    while not data.endswith(b"\n"):
        chunk = conn.recv(65536)
        if not chunk:
            raise ConnectionError("rendezvous peer closed the connection")
        data += chunk
    return data


def _serve(server: socket.socket, rank0: str, world: int, timeout_s: float,
           peer_host: str | None) -> list[str]:
    """Rank 0: collect every other rank's port, send everyone the list (``peer_host``: the
    host to record for every peer; None: the address the peer connected from)."""
    workers = {0: rank0}
    peers: list[socket.socket] = []
    server.listen(world)
    server.settimeout(timeout_s)
    try:
        while len(workers) < world:
            conn, addr = server.accept()
            peers.append(conn)
            conn.settimeout(timeout_s)
            msg = json.loads(_recv_line(conn))
            host = peer_host if peer_host is not None else addr[0]
            workers[int(msg["rank"])] = _host_port(host, int(msg["port"]))
        listing = json.dumps([workers[r] for r in range(world)]).encode() + b"\n"
        for conn in peers:
            conn.sendall(listing)
    finally:
        for conn in peers:
            conn.close()
    return [workers[r] for r in range(world)]


def _ask(conn: socket.socket, rank: int, port: int) -> list[str]:
    with conn:
        conn.sendall(json.dumps({"rank": rank, "port": port}).encode() + b"\n")
        return list(json.loads(_recv_line(conn)))


def local_socket_name(master_addr: str, master_port: int) -> str:
    """The abstract Unix socket the workers of one host meet at (one per user and MASTER_*)."""
    name = f"\0workloads-tf-{os.getuid()}-{master_addr}-{master_port}"
    if len(name.encode()) > 100:  # the kernel takes 107 bytes: a long host name goes hashed
        digest = hashlib.sha256(master_addr.encode()).hexdigest()[:16]
        name = f"\0workloads-tf-{os.getuid()}-{digest}-{master_port}"
    return name


def exchange_local(master_addr: str, master_port: int, rank: int, world: int,
                   timeout_s: float) -> list[str]:
    """Every worker's ``MASTER_ADDR:port`` in rank order, all ranks on this host."""
    deadline = time.time() + timeout_s
    port = _free_port()
    name = local_socket_name(master_addr, master_port)
    if rank != 0:
        return _ask(_connect(name, deadline), rank, port)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(name)
        return _serve(server, _host_port(master_addr, port), world, timeout_s, master_addr)


def exchange(master_addr: str, master_port: int, rank: int, world: int,
             timeout_s: float) -> list[str]:
    """Every worker's ``host:port`` in rank order, over TCP at MASTER_ADDR:MASTER_PORT."""
    deadline = time.time() + timeout_s
    port = _free_port()
    if rank != 0:
        return _ask(_connect((master_addr, master_port), deadline), rank, port)
    family = socket.AF_INET6 if ":" in master_addr else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as server:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("", master_port))
        return _serve(server, _host_port(master_addr, port), world, timeout_s, None)


def worker_addresses(denv: DistEnv, master_addr: str, master_port: int,
                     timeout_s: float) -> list[str]:
    """The TF_CONFIG worker list for this launch (module docstring)."""
    if denv.world_size == 1:
        return [_host_port(master_addr, _free_port())]
    if denv.local_world_size == denv.world_size and sys.platform == "linux":
        return exchange_local(master_addr, master_port, denv.rank, denv.world_size, timeout_s)
    return exchange(master_addr, master_port, denv.rank, denv.world_size, timeout_s)
