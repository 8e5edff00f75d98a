/// Rollup slots recomputed once per transaction (migration v12): the triggers on `sample` only mark the slots a deleted
/// or changed sample leaves or enters, and ``SQLiteWriteContext/finish()`` recomputes each marked slot, then each day
/// holding one, from what is stored at the end of the transaction (docs/health-store.md, "Schema and migrations").
extension SQLiteSchema {
    /// v12: marks instead of recomputations. Before it, every deleted sample and every sample whose part changed
    /// recomputed its slot — two for an update — and each recomputed slot its day (96 slots), in triggers, one
    /// statement at a time: most of the rollup's share of deleting or excluding 1 000 readings. Now a trigger adds the
    /// slot's key to `sample_rollup_mark` (once: its primary key), and ``recomputeMarked`` recomputes each marked slot
    /// and each day holding one once, in a few set-wide statements. The trigger that recomputed a day for each deleted
    /// slot goes: only those statements delete slots, and they recompute the days themselves. The table is empty between
    /// transactions; what the rollup sums is the same as before.
    static var rollupV12: String {
        """
        CREATE TABLE sample_rollup_mark (
            type_id INTEGER NOT NULL, part INTEGER NOT NULL, slot INTEGER NOT NULL, source_id INTEGER NOT NULL,
            PRIMARY KEY (type_id, part, slot, source_id)
        ) STRICT, WITHOUT ROWID;

        DROP TRIGGER sample_rollup_delete;
        DROP TRIGGER sample_rollup_update;
        DROP TRIGGER sample_rollup_day_delete;
        CREATE TRIGGER sample_rollup_delete AFTER DELETE ON sample WHEN OLD.value IS NOT NULL BEGIN
            \(mark("OLD"))
        END;
        CREATE TRIGGER sample_rollup_update AFTER UPDATE OF value, start_at, type_id, source_id, correlation_id, metadata ON sample
        WHEN \(rollupChanged)
        BEGIN
            \(mark("OLD"))
            \(mark("NEW"))
        END;
        """
    }

    /// Marks the slot of the `sample` row `row` (`OLD` or `NEW`) for ``recomputeMarked``.
    private static func mark(_ row: String) -> String {
        """
        INSERT OR IGNORE INTO sample_rollup_mark (type_id, part, slot, source_id)
        VALUES (\(row).type_id, \(partV9(row)), \(slot("\(row).start_at")), \(row).source_id);
        """
    }

    /// Whether any slot is marked: mostly none (a transaction that only inserts), and then nothing is recomputed.
    static let anyMarked = "SELECT EXISTS (SELECT 1 FROM sample_rollup_mark)"

    /// Recomputes every marked slot from `sample` and every day holding one from its slots, then forgets the marks: run
    /// in this order, at the end of a writing transaction, after its inserted rows and their slot deltas are written.
    /// `CROSS JOIN` keeps the marks the outer loop (SQLite, "The SQLite Query Optimizer Overview", §"Manual Control Of
    /// Query Plans Using CROSS JOIN"), so each slot's samples are read along `sample_type_start` and each day's slots
    /// along the rollup's key; the latest value is looked up after the sums, at the latest time only (as migration v6
    /// does). The slots inserted here are added to their days by `sample_rollup_day_insert` too, and those days then
    /// recomputed all the same: keeping days by subtracting the old slots was tried, and left most days to recompute
    /// anyway (Benchmarks/RESULTS.md, "Rollup marks").
    static let recomputeMarked: [String] = {
        let key = "type_id, part, slot, source_id"
        let dayKey = "type_id, part, day, source_id"
        let lo = "m.slot * \(rollupSlotMicros)"
        let days = "SELECT DISTINCT type_id, part, \(dayOfSlot("slot")) AS day, source_id FROM sample_rollup_mark"
        return [
            "DELETE FROM sample_rollup WHERE (\(key)) IN (SELECT \(key) FROM sample_rollup_mark)",
            // With the series rows of each slot (migration v13), summed from their own columns: a row lies in one slot.
            """
            INSERT INTO sample_rollup (\(key), n, total, lo, hi, last_at, last_value)
            SELECT a.*, coalesce(
                (SELECT s.value FROM sample s WHERE s.type_id = a.type_id AND s.start_at = a.last_at AND s.source_id = a.source_id
                   AND s.value IS NOT NULL AND \(partV9("s")) = a.part ORDER BY s.id DESC LIMIT 1),
                (SELECT r.last_value FROM sample_series r WHERE r.type_id = a.type_id AND r.end_at = a.last_at AND r.source_id = a.source_id
                   AND r.part = a.part))
            FROM (
                SELECT type_id, part, slot, source_id, sum(n), sum(total), min(lo), max(hi), max(last_at) AS last_at FROM (
                    SELECT m.type_id, m.part, m.slot, m.source_id, count(*) AS n, sum(s.value) AS total, min(s.value) AS lo,
                        max(s.value) AS hi, max(s.start_at) AS last_at
                    FROM sample_rollup_mark m CROSS JOIN sample s
                        ON s.type_id = m.type_id AND s.start_at >= \(lo) AND s.start_at < \(lo) + \(rollupSlotMicros) AND s.source_id = m.source_id
                        AND s.value IS NOT NULL AND \(partV9("s")) = m.part
                    GROUP BY m.type_id, m.part, m.slot, m.source_id
                    UNION ALL
                    SELECT m.type_id, m.part, m.slot, m.source_id, sum(r.n), sum(r.total), min(r.lo), max(r.hi), max(r.end_at)
                    FROM sample_rollup_mark m CROSS JOIN sample_series r
                        ON r.type_id = m.type_id AND r.start_at >= \(lo) AND r.start_at < \(lo) + \(rollupSlotMicros) AND r.source_id = m.source_id
                        AND r.part = m.part
                    GROUP BY m.type_id, m.part, m.slot, m.source_id)
                GROUP BY type_id, part, slot, source_id) a
            """,
            "DELETE FROM sample_rollup_day WHERE (\(dayKey)) IN (\(days))",
            // The latest value is that of the slot holding the latest sample (slots do not overlap, so there is one).
            """
            INSERT INTO sample_rollup_day (\(dayKey), n, total, lo, hi, last_at, last_value)
            SELECT a.*, (SELECT r.last_value FROM sample_rollup r WHERE r.type_id = a.type_id AND r.part = a.part
                           AND r.slot = \(slot("a.last_at")) AND r.source_id = a.source_id)
            FROM (
                SELECT d.type_id, d.part, d.day, d.source_id, sum(r.n), sum(r.total), min(r.lo), max(r.hi), max(r.last_at) AS last_at
                FROM (\(days)) d CROSS JOIN sample_rollup r
                    ON r.type_id = d.type_id AND r.part = d.part AND r.slot >= d.day * \(rollupSlotsPerDay)
                    AND r.slot < (d.day + 1) * \(rollupSlotsPerDay) AND r.source_id = d.source_id
                GROUP BY d.type_id, d.part, d.day, d.source_id) a
            """,
            "DELETE FROM sample_rollup_mark",
        ]
    }()
}
