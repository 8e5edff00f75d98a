// libFuzzer entry point over every GATTHealth decoder, compiled into the GATTHealth module itself by
// scripts/fuzz (`swiftc -sanitize=fuzzer,address`). The decoder is chosen by CUFFD_FUZZ_TARGET; besides
// "never crash", each target traps when an invariant of the codec breaks (see FuzzInvariants.swift).

#if canImport(Glibc)
import Glibc
#endif

/// The target named by `CUFFD_FUZZ_TARGET`, read once.
private let selectedTarget: FuzzTarget = {
    let name = getenv("CUFFD_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        fatalError("CUFFD_FUZZ_TARGET must be one of: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: " "))")
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    selectedTarget.check(bytes)
    return 0
}
