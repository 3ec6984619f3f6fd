// Chipmunk 7 on an exported scene: one circle per body (mass from area, no friction or
// elasticity) pulled to the target by a cpDampedSpring (rest length 0) from the static body,
// with the scene's spring: 1 Hz, critically damped. cpSpaceStep(1/60).
// Usage: chipmunk_driver SCENE.json [WARMUP=20] [STEPS=100]. Prints one JSON object.
#include <chipmunk/chipmunk.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct { double x, y, r; } Circle;

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s SCENE.json [WARMUP] [STEPS]\n", argv[0]); return 2; }
    int warmup = argc > 2 ? atoi(argv[2]) : 20, steps = argc > 3 ? atoi(argv[3]) : 100;
    FILE *f = fopen(argv[1], "r");
    if (!f) { perror(argv[1]); return 1; }
    // The exporter writes the target on the first line and one body per line.
    static char line[4096];
    double tx = 0, ty = 0;
    size_t n = 0, cap = 1024;
    Circle *c = malloc(cap * sizeof *c);
    while (fgets(line, sizeof line, f)) {
        char *t = strstr(line, "\"target\"");
        if (t) sscanf(t, "\"target\": [%lf, %lf]", &tx, &ty);
        double x, y, r;
        char *b = strstr(line, "{\"x\"");
        if (b && sscanf(b, "{\"x\": %lf, \"y\": %lf, \"r\": %lf", &x, &y, &r) == 3) {
            if (n == cap) c = realloc(c, (cap *= 2) * sizeof *c);
            c[n++] = (Circle){x, y, r};
        } else if (b) {
            fprintf(stderr, "chipmunk driver: circles only (export with --circles-only)\n");
            return 1;
        }
    }
    fclose(f);
    cpSpace *space = cpSpaceNew();
    cpSpaceSetIterations(space, 10);
    cpBody *ground = cpSpaceGetStaticBody(space);
    cpBody **bodies = malloc(n * sizeof *bodies);
    const double omega = 2 * M_PI * 1.0, zeta = 1.0;
    for (size_t i = 0; i < n; i++) {
        double m = M_PI * c[i].r * c[i].r;
        cpBody *b = cpSpaceAddBody(space, cpBodyNew(m, INFINITY));  // no rotation, like the others
        cpBodySetPosition(b, cpv(c[i].x, c[i].y));
        cpShape *s = cpSpaceAddShape(space, cpCircleShapeNew(b, c[i].r, cpvzero));
        cpShapeSetFriction(s, 0);
        cpShapeSetElasticity(s, 0);
        cpSpaceAddConstraint(space, cpDampedSpringNew(ground, b, cpv(tx, ty), cpvzero, 0,
                                                      m * omega * omega, 2 * zeta * m * omega));
        bodies[i] = b;
    }
    double *times = malloc(steps * sizeof *times);
    for (int k = 1; k <= warmup + steps; k++) {
        double t0 = now_ms();
        cpSpaceStep(space, 1.0 / 60.0);
        double t1 = now_ms();
        if (k > warmup) times[k - warmup - 1] = t1 - t0;
    }
    qsort(times, steps, sizeof *times, cmp);
    double worst = 0;  // deepest overlap, brute force over a sweep in x
    for (size_t i = 0; i < n; i++) {
        cpVect p = cpBodyGetPosition(bodies[i]);
        c[i].x = p.x; c[i].y = p.y;
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            double dx = c[j].x - c[i].x, dy = c[j].y - c[i].y, rr = c[i].r + c[j].r;
            if (fabs(dx) >= rr || fabs(dy) >= rr) continue;
            double d = rr - sqrt(dx * dx + dy * dy);
            if (d > worst) worst = d;
        }
    printf("{\"peer\": \"chipmunk\", \"bodies\": %zu, \"ms_median\": %g, \"ms_min\": %g, \"ms_max\": %g, "
           "\"max_overlap_pt\": %g, \"steps\": %d}\n",
           n, times[steps / 2], times[0], times[steps - 1], worst, warmup + steps);
    return 0;
}
