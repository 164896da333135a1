"""Where every MultiWorkerMirroredStrategy worker listens, for TF_CONFIG.

On one host the workers take MASTER_PORT+1+i on MASTER_ADDR (MASTER_PORT itself stays with the
launcher: torchrun's agent holds it). Across hosts the launcher's rank variables do not say
each worker's host, so the workers meet once at MASTER_ADDR:MASTER_PORT (free there: no
launcher of these apps binds it when ranks span nodes): rank 0 listens, every other rank
connects and says which port it reserved; rank 0 records the address it sees the rank connect
from and sends everyone the list. No framework is imported here.
"""

from __future__ import annotations

import json
import socket
import time

from workloads.runtime.ranks import DistEnv


def _host_port(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("", 0))
        return int(s.getsockname()[1])


def _connect(addr: str, port: int, deadline: float) -> socket.socket:
    while True:
        try:
            return socket.create_connection((addr, port), timeout=max(deadline - time.time(), 1))
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


def exchange(master_addr: str, master_port: int, rank: int, world: int,
             timeout_s: float) -> list[str]:
    """Every worker's ``host:port`` in rank order (a collective over all ``world`` ranks)."""
    deadline = time.time() + timeout_s
    port = _free_port()
    if rank != 0:
        with _connect(master_addr, master_port, deadline) as conn:
            conn.sendall(json.dumps({"rank": rank, "port": port}).encode() + b"\n")
            return list(json.loads(_recv_line(conn)))
    workers = {0: _host_port(master_addr, port)}
    peers = []
    with socket.socket() as server:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("", master_port))
        server.listen(world)
        server.settimeout(timeout_s)
        try:
            while len(workers) < world:
                conn, (host, *_) = server.accept()
                peers.append(conn)
                msg = json.loads(_recv_line(conn))
                workers[int(msg["rank"])] = _host_port(host, int(msg["port"]))
            listing = json.dumps([workers[r] for r in range(world)]).encode() + b"\n"
            for conn in peers:
                conn.sendall(listing)
        finally:
            for conn in peers:
                conn.close()
    return [workers[r] for r in range(world)]


def worker_addresses(denv: DistEnv, master_addr: str, master_port: int,
                     timeout_s: float) -> list[str]:
    """The TF_CONFIG worker list for this launch (module docstring)."""
    if denv.local_world_size == denv.world_size:
        return [_host_port(master_addr, master_port + 1 + i) for i in range(denv.world_size)]
    return exchange(master_addr, master_port, denv.rank, denv.world_size, timeout_s)
