import GATTHealth
import CAllocationCounter

#if canImport(Glibc)
import Glibc
#endif

/// The measured loop of `cuffctl benchmark decode`: the typed decoder of one characteristic, called
/// `count` times over the same bytes, each result handed to ``opaqueSink(_:)``.
struct DecodeLoop {
    let characteristic: HealthCharacteristic
    let bytes: [UInt8]
    let quirk: BloodPressureQuirk?

    struct Result {
        let nanosecondsPerPacket: Double
        let allocationsPerPacket: Double
    }

    func measure(count: Int) -> Result {
        run(count: min(count, 10_000))  // warm caches and branch predictors
        cuffd_allocations_start()
        let start = monotonicNanoseconds()
        run(count: count)
        let elapsed = monotonicNanoseconds() - start
        let allocations = cuffd_allocations_stop()
        return Result(
            nanosecondsPerPacket: Double(elapsed) / Double(count),
            allocationsPerPacket: Double(allocations) / Double(count))
    }

    private func run(count: Int) {
        bytes.withUnsafeBytes { buffer in
            switch characteristic {
            case .bloodPressureMeasurement:
                for _ in 0 ..< count { opaqueSink(try? BloodPressureMeasurement(decoding: buffer, quirk: quirk)) }
            case .intermediateCuffPressure:
                for _ in 0 ..< count { opaqueSink(try? IntermediateCuffPressure(decoding: buffer, quirk: quirk)) }
            case .heartRateMeasurement:
                for _ in 0 ..< count { opaqueSink(try? HeartRateMeasurement(decoding: buffer)) }
            default:
                for _ in 0 ..< count { opaqueSink(try? DecodedCharacteristic.decode(characteristic, buffer)) }
            }
        }
    }
}

/// Takes a value where the optimiser cannot see what happens to it, so the decode that produced it
/// must run.
@_optimize(none)
@inline(never)
func opaqueSink<T>(_ value: T) {}

/// CLOCK_MONOTONIC in nanoseconds.
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}
