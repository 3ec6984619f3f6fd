// Overlap relaxation: Gauss–Seidel sweeps over the grid's candidate pairs, in row bands that can
// run on several threads with the same bits as on one.
//
// The grid (World+Grid.swift) keeps the slots sorted by cell, row-major, and a slot's candidate
// partners lie in its own cell row and the next two (the forward neighbour cells, and, from the
// last column, the first cell two rows down). So a range of rows whose bodies are swept touches
// only those rows and the two below. Worlds of at least `bandMinBodies` cell bodies are cut into
// `WorldSettings.bands` row bands: a sweep first runs the bands' interiors, which touch disjoint
// rows, then the seams between them (two rows each, again disjoint), then the large bodies.
// Within each of these phases the order of the tasks cannot change a bit, so an executor
// (`World.executor`) may run them at once; without one they run one after another in the same
// order. The band boundaries follow the slot counts of the rows, never the executor.

import BubbleSupport

/// Runs the independent parts of a step on several threads.
///
/// Called with a task count `n` and a body, it must call `body(t)` exactly once for every
/// `t` in `0..<n`, on any threads and in any order, and return when all calls have returned. The
/// world's results never depend on it: `WorldSettings.bands` fixes how the work is cut. A world
/// passes the same body every time (it reads what to do from the world), so keeping it costs no
/// allocation; it must not be called after the executor has returned.
public typealias ParallelExecutor = (_ count: Int, _ body: @escaping @Sendable (Int) -> Void) -> Void

/// A parallel phase of the step: what `World.runPhase` does with each task index.
enum Phase {
    case none
    /// Springs (and, unless couplings run in between, contact damping and integration).
    case springs(BodyPass, integrate: Bool)
    case integrate(BodyPass)
    /// The drive allowances for the deep marks (`BodyPass.noteDrive`).
    case drive(BodyPass)
    /// The contact limits and static friction after the sweeps, measuring speeds when `measure`.
    case finish(BodyPass, measure: Bool)
    /// The grid's cell keys, one column's permutation gather or copy-back, the slot map.
    case gridKeys(GridPass)
    case gridGather(GridPass, column: Int)
    case gridCopyBack(GridPass, column: Int)
    case gridSlots(GridPass, slotOf: UnsafeMutablePointer<UInt32>)
    /// Pair lists: interior i and the seam below it.
    case lists(SweepShared, reach: Double, taskCount: Int)
    /// One sweep over the interiors (tasks 2i) or the seams (tasks 2i + 1).
    case sweep(SweepShared, forward: Bool, seams: Bool)
}

/// The world as the executor's body sees it. Unowned: the world owns the body, and the executor
/// may only call it while the world is stepping.
struct PhaseRunner: @unchecked Sendable {
    unowned(unsafe) let world: World
}

/// One unit of a sweep: a band's interior or the seam below it, a contiguous range of grid rows
/// (so of cells and of slots), with its own part of the pair list and its own solver.
struct SweepTask {
    /// Cells `cellLo..<cellHi` (whole rows) and their slots `slotLo..<slotHi`.
    var cellLo: Int
    var cellHi: Int
    var slotLo: Int
    var slotHi: Int
    /// The task's region of the pair list, `listBase..<listLimit`, filled up to `listEnd`.
    var listBase: Int
    var listLimit: Int
    var listEnd: Int
    /// Whether the candidates fitted the region (else the task sweeps the grid).
    var listed: Bool
    var solver: ContactSolver
}

extension GridLayout {
    /// The slot ranges of cell `cell`'s forward neighbours: `..<r1End` runs on through the next
    /// cell of its row, `r2Start..<r2End` covers the three cells below (cells past the grid's end
    /// are empty).
    @inline(__always)
    func forwardRanges(of cell: Int, cellStart cs: UnsafeMutablePointer<UInt32>) -> (Int, Int, Int) {
        (Int(cs[cell + 2 < cells ? cell + 2 : cells]),
         Int(cs[cell + width - 1 < cells ? cell + width - 1 : cells]),
         Int(cs[cell + width + 2 < cells ? cell + width + 2 : cells]))
    }
}

/// What the sweep tasks share, as plain pointers and values, so that the closures handed to the
/// executor are `Sendable`: each task writes only its own `SweepTask`, its slots' `pairCount`,
/// its region of the list and the bodies of its rows (World+Relax.swift explains why those are
/// disjoint within a phase).
struct SweepShared: @unchecked Sendable {
    let tasks: UnsafeMutablePointer<SweepTask>
    let col: Columns
    let list: UnsafeMutablePointer<UInt32>
    let counts: UnsafeMutablePointer<UInt8>
    let cellStart: UnsafeMutablePointer<UInt32>
    let grid: GridLayout
}

extension World {
    /// Candidate pairs kept per slot in the sub-step's pair list (see `relax`); more than
    /// `pairsPerSlot` per slot of a task in all, or more than 255 for one slot, and the task
    /// sweeps the grid instead. At least 3: `buildGrid` uses the same buffer for the permutation
    /// (one word per slot) and one gathered column of doubles (two words per slot).
    static let pairsPerSlot = 4

    /// Worlds with fewer bodies in grid cells than this sweep as one band: below it a second
    /// thread would not pay for itself (a phase hand-off costs about a microsecond, a 512-body
    /// sweep some 50), and small worlds (a dashboard level) keep the plain sweep order.
    public static let bandMinBodies = 512

    /// Margin of the pair list, as a fraction of the small-body half-extent limit: how far two
    /// bodies may move towards each other between the list's build and the sweeps that use it and
    /// still be found (a pair missed here is found by the next list). Worlds swept in bands keep
    /// a step's first list for its later sub-steps while the speeds since its build carry no body
    /// more than half of its margin (`World.step()`), and use this margin whenever bodies move
    /// fast, otherwise one sized to their speeds, down to `listMarginFloor` (see
    /// `World.listMarginFor`). Why 0.25: `Benchmarks/NOTES.md`, "Pair-list margins".
    static let listMargin = 0.25
    /// The smallest margin of a banded world's pair list, as a fraction of the small-body
    /// half-extent limit. It has to cover what the speed rule does not count: how far the
    /// sweeps push a body between the list's build and its last sweep. Why 0.1:
    /// `Benchmarks/NOTES.md`, "Pair-list margins".
    static let listMarginFloor = 0.1

    /// Runs the tasks `0..<n` of `phase` through the executor when there is one and more than one
    /// task, else in order on this thread. Only the executor's body reads the phase from the
    /// world: on this thread it runs as given, inlined where it is made, so a small world's step
    /// copies no phase (a fifth of a layout packing's instructions went to such copies).
    @inline(__always)
    func parallel(_ n: Int, _ phase: Phase) {
        if n > 1, let run = executor {
            self.phase = phase
            run(n, phaseBody)
            self.phase = .none
        } else {
            for t in 0..<n { runPhase(t, phase) }
        }
    }

    /// Task `t` of the phase the executor runs.
    func runPhase(_ t: Int) { runPhase(t, phase) }

    /// Task `t` of `phase`.
    @inline(__always)
    func runPhase(_ t: Int, _ phase: Phase) {
        switch phase {
        case .none:
            break
        case let .springs(pass, integrate):
            let r = pass.range(t)
            pass.velocity(r)
            if integrate { pass.integrate(r) }
        case let .integrate(pass):
            pass.integrate(pass.range(t))
        case let .drive(pass):
            pass.noteDrive(pass.range(t))
        case let .finish(pass, measure):
            pass.maxSpeedSq[t] = pass.finish(pass.range(t), measure: measure)
        case let .gridKeys(pass):
            pass.computeKeys(t)
        case let .gridGather(pass, column):
            pass.permute(column: column, t, back: false)
        case let .gridCopyBack(pass, column):
            pass.permute(column: column, t, back: true)
        case let .gridSlots(pass, slotOf):
            pass.slots(t, slotOf)
        case let .lists(sh, reach, taskCount):
            // Each interior with the seam below it, so the threads get equal shares.
            sh.tasks[2 * t].buildPairList(sh, reach: reach)
            if 2 * t + 1 < taskCount { sh.tasks[2 * t + 1].buildPairList(sh, reach: reach) }
        case let .sweep(sh, forward, seams):
            let k = seams ? 2 * t + 1 : 2 * t
            if forward { sh.tasks[k].sweepForward(sh) } else { sh.tasks[k].sweepBackward(sh) }
        }
    }

    /// Gauss–Seidel overlap relaxation over the grid built by `buildGrid()`.
    ///
    /// The grid's candidate pairs (each slot against the later slots of its cell and of the four
    /// forward neighbour cells) are found once per call: the pairs whose bounding boxes,
    /// grown by `contactSlop` plus a margin for the motion within the sweeps, overlap go into a
    /// list, in slot order (`perm`, with `pairCount` per slot). The sweeps then run over the list
    /// instead of the cells: forward, each slot's candidates in list order; backward, the slots in
    /// reverse, each slot's candidates still in list order. Every sweep repeats the exact test.
    /// A forward sweep runs the band interiors, then the seams, then the large bodies; a backward
    /// sweep the reverse.
    ///
    /// With `reuse`, the sweeps run over the tasks and pair lists of the last call (the same
    /// grid, the same slots), which must have planned bands.
    func relax(invH: Double, reuse: Bool = false) {
        let g = grid
        if g.smallCount + g.largeCount < 2 { lastSweepMaxOverlap = 0; plannedTasks = 0; return }
        if reuse {
            sweep(sweepTasks, count: plannedTasks, buildLists: false)
            return
        }
        let bandTasks = planSweepTasks(invH: invH)
        plannedTasks = bandTasks
        if bandTasks > 0 {
            sweep(sweepTasks, count: bandTasks)
        } else {
            // One task for the whole grid, on the stack (small worlds keep no task buffer); its
            // tie-breaks come from the world's generator.
            let solver = ContactSolver(col: col, deep: deepMark, slop: settings.contactSlop, invH: invH, rng: rng)
            var whole = sweepTask(rows: 0, g.height, last: true, solver: solver)
            withUnsafeMutablePointer(to: &whole) { sweep($0, count: 1) }
            rng = whole.solver.rng
        }
    }

    /// The sweep task over grid rows `r0..<r1` (`last`: its list region runs to the end).
    func sweepTask(rows r0: Int, _ r1: Int, last: Bool, solver: ContactSolver) -> SweepTask {
        let w = grid.width
        let lo = Int(cellStart[r0 * w]), hi = Int(cellStart[r1 * w])
        return SweepTask(
            cellLo: r0 * w, cellHi: r1 * w, slotLo: lo, slotHi: hi,
            listBase: World.pairsPerSlot * lo, listLimit: last ? pairCapacity : World.pairsPerSlot * hi,
            listEnd: World.pairsPerSlot * lo, listed: false, solver: solver)
    }

    /// The pair lists (unless the tasks keep theirs) and the sweeps of `tasks[0..<taskCount]`
    /// (interiors at even indices).
    func sweep(_ tasks: UnsafeMutablePointer<SweepTask>, count taskCount: Int, buildLists: Bool = true) {
        let g = grid
        let cs = cellStart
        let largeStart = g.smallCount, largeEnd = g.smallCount + g.largeCount
        let iterations = settings.iterations
        let markDeep = settings.hasStaticFriction
        let sh = SweepShared(tasks: tasks, col: col, list: perm, counts: pairCount, cellStart: cs, grid: g)
        // Interiors are the even tasks, seams the odd ones.
        let interiors = (taskCount + 1) / 2, seams = taskCount / 2
        if iterations > 1 && buildLists {
            let margin = taskCount > 1 ? listMarginPt : fullListMargin
            let reach = settings.contactSlop + margin
            parallel(interiors, .lists(sh, reach: reach, taskCount: taskCount))
        }
        var swept = 0.0
        for it in 0..<iterations {
            // A sweep that corrected nothing leaves every position as it was, so the remaining
            // sweeps would repeat it exactly: stop (bit-identical to running them).
            if it > 0 && swept == 0 { break }
            for t in 0..<taskCount {
                tasks[t].solver.maxPen = 0
                tasks[t].solver.markDeep = it == 0 && markDeep
            }
            if it & 1 == 0 {
                parallel(interiors, .sweep(sh, forward: true, seams: false))
                parallel(seams, .sweep(sh, forward: true, seams: true))
                for l in largeStart..<largeEnd { tasks[0].solver.large(l, grid: g, cellStart: cs, largeEnd: largeEnd) }
            } else {
                var l = largeEnd
                while l > largeStart {
                    l -= 1
                    tasks[0].solver.large(l, grid: g, cellStart: cs, largeEnd: largeEnd)
                }
                parallel(seams, .sweep(sh, forward: false, seams: true))
                parallel(interiors, .sweep(sh, forward: false, seams: false))
            }
            swept = 0
            for t in 0..<taskCount where tasks[t].solver.maxPen > swept { swept = tasks[t].solver.maxPen }
        }
        lastSweepMaxOverlap = swept
    }

    /// Cuts the grid into row bands: fills `sweepTasks[0..<n]` (in slot order, interiors at even
    /// indices, each with a generator seeded from one draw of the world's) and returns n; or
    /// returns 0 when the world is small, `settings.bands` is 1 or the rows cannot be cut.
    func planSweepTasks(invH: Double) -> Int {
        let g = grid
        let k = settings.bands
        guard k > 1 && g.smallCount >= World.bandMinBodies && sweepTaskCapacity >= 2 * k - 1 else { return 0 }
        let cs = cellStart
        let tasks = sweepTasks
        let w = g.width, rows = g.height
        let solver = ContactSolver(col: col, deep: deepMark, slop: settings.contactSlop, invH: invH, rng: rng)
        // Band boundaries b_1 < … < b_(K-1): the row where the slot count reaches j/K of the cell
        // bodies; interior j - 1 ends before row b_j - 1, seam j is rows b_j - 1 and b_j. Seams
        // must be 4 rows apart (disjoint, also counting the reach two rows down from a row's last
        // cell).
        var row = 0, prev = -3, r0 = 0, n = 0
        for j in 1..<k {
            let want = UInt32(truncatingIfNeeded: (g.smallCount * j) / k)
            while row < rows && cs[(row + 1) * w] < want { row += 1 }
            if row < prev + 4 { row = prev + 4 }
            if row < 1 { row = 1 }
            if row > rows - 1 { return 0 }
            tasks[n] = sweepTask(rows: r0, row - 1, last: false, solver: solver)
            tasks[n + 1] = sweepTask(rows: row - 1, row + 1, last: false, solver: solver)
            n += 2
            r0 = row + 1
            prev = row
        }
        tasks[n] = sweepTask(rows: r0, rows, last: true, solver: solver)
        n += 1
        let base = rng.next()
        for t in 0..<n {
            tasks[t].solver.rng = SplitMix64(seed: base &+ UInt64(t + 1) &* 0xD1B5_4A32_D192_ED03)
        }
        return n
    }
}

extension SweepTask {
    /// Fills the task's region of `perm` (and `pairCount` for its slots) with the candidate
    /// pairs of its cells whose boxes, grown by `reach`, overlap; the task sweeps the grid instead
    /// if they do not fit.
    mutating func buildPairList(_ sh: SweepShared, reach: Double) {
        let g = sh.grid
        let c = sh.col
        let px = c.px, py = c.py, hw = c.hw, hh = c.hh, scale = c.scale
        let cs = sh.cellStart
        let list = sh.list, counts = sh.counts
        let limit = listLimit
        var k = listBase
        listed = false
        for cell in cellLo..<cellHi {
            let start = Int(cs[cell]), end = Int(cs[cell + 1])
            if start == end { continue }
            let (r1End, r2Start, r2End) = g.forwardRanges(of: cell, cellStart: cs)
            for p in start..<end {
                let si = scale[p]
                let exi = hw[p] * si + reach, eyi = hh[p] * si + reach
                let xi = px[p], yi = py[p]
                let k0 = k
                if k + (r1End - p - 1) + (r2End - r2Start) <= limit {
                    // Room for every candidate: write each one and advance only past those that
                    // pass, without a branch (most fail, at random, which branches mispredict).
                    // `a - b < 0` is `a < b` for finite values (gradual underflow), so the list is
                    // the same as the checked loops below give. (Written out twice, as while loops:
                    // the test as a shared local function in for-in loops made the step 13 %
                    // slower.)
                    var q = p + 1
                    while q < r1End {
                        let sj = scale[q]
                        let dx = px[q] - xi, dy = py[q] - yi
                        let gx = (dx < 0 ? -dx : dx) - (exi + hw[q] * sj)
                        let gy = (dy < 0 ? -dy : dy) - (eyi + hh[q] * sj)
                        list[k] = UInt32(truncatingIfNeeded: q)
                        k &+= (gx > gy ? gx : gy) < 0 ? 1 : 0
                        q += 1
                    }
                    q = r2Start
                    while q < r2End {
                        let sj = scale[q]
                        let dx = px[q] - xi, dy = py[q] - yi
                        let gx = (dx < 0 ? -dx : dx) - (exi + hw[q] * sj)
                        let gy = (dy < 0 ? -dy : dy) - (eyi + hh[q] * sj)
                        list[k] = UInt32(truncatingIfNeeded: q)
                        k &+= (gx > gy ? gx : gy) < 0 ? 1 : 0
                        q += 1
                    }
                } else {
                    // Near the end of the task's region: the same test, checking the room.
                    func fits(_ q: Int) -> Bool {
                        let sj = scale[q]
                        let dx = px[q] - xi, dy = py[q] - yi
                        return (dx < 0 ? -dx : dx) < exi + hw[q] * sj && (dy < 0 ? -dy : dy) < eyi + hh[q] * sj
                    }
                    for q in (p + 1)..<r1End where fits(q) {
                        if k == limit { return }
                        list[k] = UInt32(truncatingIfNeeded: q)
                        k += 1
                    }
                    for q in r2Start..<r2End where fits(q) {
                        if k == limit { return }
                        list[k] = UInt32(truncatingIfNeeded: q)
                        k += 1
                    }
                }
                if k - k0 > 255 { return }
                counts[p] = UInt8(truncatingIfNeeded: k - k0)
            }
        }
        listEnd = k
        listed = true
    }

    /// A forward sweep: the task's slots in order, each against its later candidates.
    mutating func sweepForward(_ sh: SweepShared) {
        let list = sh.list, counts = sh.counts, cs = sh.cellStart, g = sh.grid
        if listed {
            var k = listBase
            for p in slotLo..<slotHi {
                let e = k + Int(counts[p])
                solver.listed(p, list, k, e)
                k = e
            }
            return
        }
        // The grid: cells in order, each body against the later bodies of its own cell and of
        // the four forward neighbour cells.
        for cell in cellLo..<cellHi {
            let start = Int(cs[cell]), end = Int(cs[cell + 1])
            if start == end { continue }
            let (r1End, r2Start, r2End) = g.forwardRanges(of: cell, cellStart: cs)
            for p in start..<end {
                solver.against(p, from: p + 1, to: r1End, and: r2Start, to: r2End)
            }
        }
    }

    /// A backward sweep: the same pairs in reverse slot order, so corrections travel both ways
    /// (each slot's own candidates still in list order).
    mutating func sweepBackward(_ sh: SweepShared) {
        let list = sh.list, counts = sh.counts, cs = sh.cellStart, g = sh.grid
        if listed {
            var e = listEnd
            var p = slotHi
            while p > slotLo {
                p -= 1
                let k = e - Int(counts[p])
                solver.listed(p, list, k, e)
                e = k
            }
            return
        }
        var cell = cellHi
        while cell > cellLo {
            cell -= 1
            let start = Int(cs[cell]), end = Int(cs[cell + 1])
            if start == end { continue }
            let (r1End, r2Start, r2End) = g.forwardRanges(of: cell, cellStart: cs)
            var p = end
            while p > start {
                p -= 1
                solver.against(p, from: p + 1, to: r1End, and: r2Start, to: r2End)
            }
        }
    }
}
