"""Box2D v3 (the box2d-python wheel) on an exported scene, through its raw C functions (cffi), so
that only b2World_Step is timed and no Python runs inside it.

One circle per body (density 1, no friction or restitution, fixed rotation), pulled to the target
by a mouse joint (a soft spring: 1 Hz, critically damped, like the scene's spring) from a static
ground body; default 4 sub-steps, sleeping enabled (Box2D's default). Lengths are scaled from pt
to Box2D's metres by SCALE (Box2D is tuned for 0.1..10 m objects).

THREADS (environment, default 1) > 1 gives Box2D that many workers through its own task interface
(b2WorldDef.enqueueTask/finishTask), served by Python threads: each task's range is split into
up to THREADS parts, the caller runs the first inside enqueueTask and worker threads the others
(a task too small to split goes to a worker whole), all as direct calls of Box2D's C task
function (cffi releases the GIL around them, so they run in parallel). The Python hand-off adds some 10-50 us per task; Box2D's solver enqueues one task per
worker per step and synchronises its stages inside it, so that cost is small against a step.
Usage: python box2d_driver.py SCENE.json [WARMUP=20] [STEPS=100]. Prints one JSON object.
"""
import json
import math
import os
import queue
import sys
import threading
import time

from box2d._box2d import ffi, lib

SCALE = 0.05  # m per pt: radii 8..30 pt become 0.4..1.5 m


class TaskSystem:
    """Box2D's enqueueTask/finishTask served by THREADS - 1 Python worker threads."""

    def __init__(self, threads):
        self.threads = threads
        self.queues = [queue.Queue() for _ in range(threads - 1)]
        self.handles = {}
        self.next_handle = 1
        self.rotation = 0
        for w in range(1, threads):
            threading.Thread(target=self.worker, args=(w,), daemon=True).start()
        self.enqueue = ffi.callback("void *(b2TaskCallback *, int, int, void *, void *)", self.on_enqueue)
        self.finish = ffi.callback("void (void *, void *)", self.on_finish)

    def worker(self, w):
        q = self.queues[w - 1]
        while True:
            task, start, end, ctx, done = q.get()
            task(start, end, w, ctx)
            done.set()

    def on_enqueue(self, task, count, min_range, task_ctx, user_ctx):
        # Split the range into up to THREADS parts of at least min_range items: the caller runs
        # the first (as worker 0) and the worker threads the others. A task too small to split
        # (Box2D's solver enqueues one single-item task per extra worker, which must run beside
        # the caller's own share) goes to a worker thread whole.
        parts = max(1, min(self.threads, count // max(1, min_range)))
        bounds = [count * k // parts for k in range(parts + 1)]
        events = []
        first = 0 if parts > 1 else -1
        for k in range(parts):
            if k == first:
                continue
            w = k if parts > 1 else self.next_worker()
            done = threading.Event()
            self.queues[w - 1].put((task, bounds[k], bounds[k + 1], task_ctx, done))
            events.append(done)
        if first == 0:
            task(bounds[0], bounds[1], 0, task_ctx)
        handle = self.next_handle
        self.next_handle += 1
        self.handles[handle] = events
        return ffi.cast("void *", handle)

    def next_worker(self):
        self.rotation = self.rotation % (self.threads - 1) + 1
        return self.rotation

    def on_finish(self, user_task, user_ctx):
        for done in self.handles.pop(int(ffi.cast("intptr_t", user_task))):
            done.wait()


def main():
    path = sys.argv[1]
    warmup = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    steps = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    scene = json.load(open(path))
    tx, ty = scene.get("target", [0, 0])
    wd = lib.b2DefaultWorldDef()
    wd.gravity.x = 0
    wd.gravity.y = 0
    threads = int(os.environ.get("THREADS", "1"))
    tasks = None
    if threads > 1:
        tasks = TaskSystem(threads)
        wd.workerCount = threads
        wd.enqueueTask = tasks.enqueue
        wd.finishTask = tasks.finish
    world = lib.b2CreateWorld(ffi.addressof(wd))
    gd = lib.b2DefaultBodyDef()
    ground = lib.b2CreateBody(world, ffi.addressof(gd))
    bodies, radii = [], []
    for b in scene["bodies"]:
        if "r" not in b:
            sys.exit("box2d driver: circles only (export with --circles-only)")
        bd = lib.b2DefaultBodyDef()
        bd.type = lib.b2_dynamicBody
        bd.position.x = b["x"] * SCALE
        bd.position.y = b["y"] * SCALE
        bd.fixedRotation = True
        body = lib.b2CreateBody(world, ffi.addressof(bd))
        sd = lib.b2DefaultShapeDef()
        sd.density = 1
        sd.friction = 0
        sd.restitution = 0
        circle = ffi.new("b2Circle *")
        circle.center.x = 0
        circle.center.y = 0
        circle.radius = b["r"] * SCALE
        lib.b2CreateCircleShape(body, ffi.addressof(sd), circle)
        md = lib.b2DefaultMouseJointDef()
        md.bodyIdA = ground
        md.bodyIdB = body
        md.target.x = tx * SCALE
        md.target.y = ty * SCALE
        md.hertz = 1
        md.dampingRatio = 1
        md.maxForce = 1e9
        lib.b2CreateMouseJoint(world, ffi.addressof(md))
        bodies.append(body)
        radii.append(b["r"])
    step = lib.b2World_Step
    times = []
    for k in range(1, warmup + steps + 1):
        t0 = time.perf_counter_ns()
        step(world, 1 / 60, 4)
        t1 = time.perf_counter_ns()
        if k > warmup:
            times.append((t1 - t0) / 1e6)
    times.sort()
    pos = []
    for body in bodies:
        p = lib.b2Body_GetPosition(body)
        pos.append((p.x / SCALE, p.y / SCALE))
    order = sorted(range(len(pos)), key=lambda i: pos[i][0] - radii[i])
    worst = 0.0
    for a in range(len(order)):
        i = order[a]
        hi = pos[i][0] + radii[i]
        for bb in range(a + 1, len(order)):
            j = order[bb]
            if pos[j][0] - radii[j] >= hi:
                break
            d = radii[i] + radii[j] - math.hypot(pos[j][0] - pos[i][0], pos[j][1] - pos[i][1])
            worst = max(worst, d)
    v = lib.b2GetVersion()
    print(json.dumps({"peer": f"box2d v{v.major}.{v.minor}.{v.revision}", "threads": threads, "bodies": len(bodies),
                      "ms_median": times[len(times) // 2], "ms_min": times[0], "ms_max": times[-1],
                      "max_overlap_pt": worst, "steps": warmup + steps}))


main()
