import Foundation
import Testing
@testable import HealthStore

/// Version-7 UUIDs made by ``Foundation/UUID/timeOrdered(at:)`` and the repeat check that relies
/// on their order (``DistinctUUIDs``).
@Suite struct TimeOrderedUUIDTests {
    /// Many made in one millisecond, and one asked for an earlier time, still ascend, with the
    /// version (7) and variant (10) bits of RFC 9562 §5.7 and the millisecond in the first 48 bits.
    /// (A day ahead: UUIDs other tests make meanwhile are older, so the first one keeps its time.)
    @Test func uuidsAscendWithinTheProcess() {
        let ms = UInt64(Date().timeIntervalSince1970 * 1000) + 86_400_000
        let at = Date(timeIntervalSince1970: (Double(ms) + 0.5) / 1000)  // mid-millisecond: no rounding down
        var uuids = (0..<10_000).map { _ in UUID.timeOrdered(at: at) }
        uuids.append(.timeOrdered(at: at.addingTimeInterval(-60)))
        for (a, b) in zip(uuids, uuids.dropFirst()) { #expect(a.byteOrder < b.byteOrder) }
        for uuid in uuids {
            #expect(uuid.uuid.6 >> 4 == 7)
            #expect(uuid.uuid.8 >> 6 == 0b10)
        }
        #expect(uuids[0].byteOrder.high >> 16 == ms)
    }

    @Test func repeatsAreFoundInOrderAndOutOfOrder() {
        let ascending = (0..<100).map { _ in UUID.timeOrdered() }
        /// Whether each UUID was new, in order.
        func added(_ uuids: [UUID]) -> [Bool] {
            var seen = DistinctUUIDs(capacity: uuids.count)
            return uuids.map { seen.insert($0) }
        }
        let new = [Bool](repeating: true, count: 100)
        #expect(added(ascending + [ascending[99], ascending[3]]) == new + [false, false])
        #expect(added(ascending.reversed() + [ascending[50], UUID()]) == new + [false, true])
    }
}
