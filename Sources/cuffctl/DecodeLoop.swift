import GATTHealth
import CAllocationCounter

#if canImport(Glibc)
import Glibc
#endif

/// The measured loop of `cuffctl benchmark decode`: the typed decoder of one characteristic, called
/// `count` times over the same bytes, the address of each result handed to ``opaqueSink(_:)``.
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
                repeatDecoding(count) { () throws(GATTDecodingError) in try BloodPressureMeasurement(decoding: buffer, quirk: quirk) }
            case .intermediateCuffPressure:
                repeatDecoding(count) { () throws(GATTDecodingError) in try IntermediateCuffPressure(decoding: buffer, quirk: quirk) }
            case .heartRateMeasurement:
                repeatDecoding(count) { () throws(GATTDecodingError) in try HeartRateMeasurement(decoding: buffer) }
            default:
                repeatDecoding(count) { () throws(GATTDecodingError) in try DecodedCharacteristic.decode(characteristic, buffer) }
            }
        }
    }
}

/// Decodes `count` times, handing the address of each result (or of the error) to ``opaqueSink(_:)``,
/// the way a C harness hands a pointer to an opaque function.
@inline(__always)
private func repeatDecoding<Value>(_ count: Int, _ decode: () throws(GATTDecodingError) -> Value) {
    for _ in 0 ..< count {
        do {
            var value = try decode()
            withUnsafeBytes(of: &value) { opaqueSink($0.baseAddress) }
        } catch {
            var failure = error
            withUnsafeBytes(of: &failure) { opaqueSink($0.baseAddress) }
        }
    }
}

/// Takes an address where the optimiser cannot see what happens to it, so the decode that filled it
/// must run.
@_optimize(none)
@inline(never)
func opaqueSink(_ value: UnsafeRawPointer?) {}

/// CLOCK_MONOTONIC in nanoseconds.
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}
