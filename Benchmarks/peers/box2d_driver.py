"""Box2D v3 (the box2d-python wheel) on an exported scene, through its raw C functions (cffi), so
that only b2World_Step is timed and no Python runs inside it.

One circle per body (density 1, no friction or restitution, fixed rotation), pulled to the target
by a mouse joint (a soft spring: 1 Hz, critically damped, like the scene's spring) from a static
ground body; default 4 sub-steps, one thread, sleeping enabled (Box2D's default). Lengths are
scaled from pt to Box2D's metres by SCALE (Box2D is tuned for 0.1..10 m objects).
Usage: python box2d_driver.py SCENE.json [WARMUP=20] [STEPS=100]. Prints one JSON object.
"""
import json
import math
import sys
import time

from box2d._box2d import ffi, lib

SCALE = 0.05  # m per pt: radii 8..30 pt become 0.4..1.5 m


def main():
    path = sys.argv[1]
    warmup = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    steps = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    scene = json.load(open(path))
    tx, ty = scene.get("target", [0, 0])
    wd = lib.b2DefaultWorldDef()
    wd.gravity.x = 0
    wd.gravity.y = 0
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
    print(json.dumps({"peer": f"box2d v{v.major}.{v.minor}.{v.revision}", "bodies": len(bodies),
                      "ms_median": times[len(times) // 2], "ms_min": times[0], "ms_max": times[-1],
                      "max_overlap_pt": worst, "steps": warmup + steps}))


main()
