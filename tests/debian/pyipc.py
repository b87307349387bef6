# pyipc.py - Debian's python3.11 (i386, unchanged) using epoll and AF_UNIX
# sockets as programs do (selectors, select.epoll, socket, asyncio), a
# child's pipes (subprocess's communicate) and multiprocessing's Queue
# (a pipe, a feeder thread and POSIX semaphores in /dev/shm), run on this kernel and on Linux 6.1 in the same
# QEMU (tests/cases/debian.py, debian_python_ipc; tests/debian/
# record-linux.sh python records Linux's transcript, pyipc.linux.out).
# Every line printed must be Linux's: no pids, times only as bounds.
import asyncio
import errno
import multiprocessing
import os
import select
import selectors
import socket
import subprocess
import sys
import time


def out(*args):
    print(*args, flush=True)


def events(sel, timeout):
    return sorted((key.data, mask) for key, mask in sel.select(timeout))


def selector_checks():
    sel = selectors.DefaultSelector()
    out("selector", type(sel).__name__)
    a, b = socket.socketpair()
    out("socketpair", a.family.name, a.type.name, a.getsockname() == "" or a.getsockname())
    sel.register(a, selectors.EVENT_READ, "a")
    sel.register(b, selectors.EVENT_WRITE, "b")
    out("ready at first", events(sel, 0))
    b.send(b"hello")
    out("ready after a send", events(sel, 1))
    out("recv", a.recv(10))
    sel.unregister(b)
    t0 = time.monotonic()
    out("nothing in 0.2 s", events(sel, 0.2), time.monotonic() - t0 >= 0.19)
    a.setblocking(False)
    try:
        a.recv(10)
    except BlockingIOError as e:
        out("nonblocking recv", errno.errorcode[e.errno], a.getblocking())
    a.setblocking(True)
    b.close()
    out("peer closed", events(sel, 1), a.recv(10))
    sel.close()
    a.close()


def epoll_checks():
    r, w = os.pipe()
    ep = select.epoll()
    ep.register(r, select.EPOLLIN | select.EPOLLET)
    os.write(w, b"x")
    out("epoll et first", ep.poll(0))
    out("epoll et again", ep.poll(0))
    os.write(w, b"y")
    out("epoll et new data", ep.poll(0))
    try:
        ep.register(r, select.EPOLLIN)
    except OSError as e:
        out("register twice", errno.errorcode[e.errno])
    os.close(w)
    out("writer gone", ep.poll(0))
    rl, wl, xl = select.select([r], [], [], 0)
    out("select on it", rl == [r])
    ep.close()
    os.close(r)


def serve(path, name):
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen(2)
    out(name, "sockname", srv.getsockname())
    pid = os.fork()
    if pid == 0:
        c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        c.connect(path)
        c.sendall(b"ping")
        ok = c.recv(10) == b"pong" and c.getpeername() == srv.getsockname()
        os._exit(0 if ok else 1)
    sel = selectors.DefaultSelector()
    sel.register(srv, selectors.EVENT_READ, "listener")
    out(name, "listener ready", events(sel, 5))
    conn, addr = srv.accept()
    out(name, "accepted from", repr(addr), conn.recv(10))
    conn.sendall(b"pong")
    _, status = os.waitpid(pid, 0)
    out(name, "client exit", os.waitstatus_to_exitcode(status))
    conn.close()
    srv.close()


def socket_checks():
    path = "/tmp/pyipc.sock"
    if os.path.exists(path):
        os.unlink(path)
    serve(path, "path")
    serve("\0pyipc", "abstract")
    for target in (path, "/tmp/nowhere.sock", "\0nowhere"):
        try:
            socket.socket(socket.AF_UNIX).connect(target)
        except OSError as e:
            out("connect", repr(target), errno.errorcode[e.errno])
    try:
        socket.socket(socket.AF_UNIX).bind(path)
    except OSError as e:
        out("bind again", errno.errorcode[e.errno])
    os.unlink(path)
    d1, d2 = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
    d1.send(b"one")
    d1.send(b"two!")
    out("datagrams", d2.recv(100), d2.recv(100))
    d1.close()
    d2.close()


out("=== pyipc")
async def echo(reader, writer):
    writer.write(b"echo " + await reader.readline())
    await writer.drain()
    writer.close()
    await writer.wait_closed()


async def asyncio_checks():
    path = "/tmp/pyipc-aio.sock"
    if os.path.exists(path):
        os.unlink(path)
    srv = await asyncio.start_unix_server(echo, path)
    r, w = await asyncio.open_unix_connection(path)
    w.write(b"hi\n")
    await w.drain()
    out("asyncio unix server", await r.readline())
    w.close()
    await w.wait_closed()
    srv.close()
    await srv.wait_closed()
    loop = asyncio.get_running_loop()
    a, b = socket.socketpair()
    a.setblocking(False)
    b.setblocking(False)
    await loop.sock_sendall(a, b"pair")
    out("asyncio socketpair", await loop.sock_recv(b, 10))
    t0 = loop.time()
    await asyncio.sleep(0.1)
    out("asyncio sleep 0.1 s", loop.time() - t0 >= 0.09)
    a.close()
    b.close()
    os.unlink(path)


def subprocess_checks():
    """100,000 bytes through cat and back: more than a pipe holds, so
    communicate must poll both pipes and write as room comes."""
    p = subprocess.Popen(["/bin/cat"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    data, _ = p.communicate(b"x" * 100000, timeout=20)
    out("communicate", len(data), data == b"x" * 100000, p.returncode)


def square_into(q, n):
    q.put([i * i for i in range(n)])
    q.put("done")


def multiprocessing_checks():
    ctx = multiprocessing.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=square_into, args=(q, 5000))
    p.start()
    got = q.get(timeout=20)
    out("multiprocessing queue", len(got), got[:4], got[-1], q.get(timeout=20))
    p.join(20)
    out("multiprocessing exitcode", p.exitcode)
    lock = ctx.Lock()
    out("multiprocessing lock", lock.acquire(timeout=1), lock.acquire(timeout=0.1))
    lock.release()


selector_checks()
epoll_checks()
socket_checks()
asyncio.run(asyncio_checks())
subprocess_checks()
multiprocessing_checks()
out("=== end")
