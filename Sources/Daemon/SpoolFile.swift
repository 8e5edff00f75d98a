import Foundation
import Gateway
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// cuffd's ``ReadingSpool``: `pending.spool` beside the store, a file of fixed slots whose blocks are allocated
/// when cuffd starts (`posix_fallocate`), so that keeping a reading still works when the disk is full — the very
/// time the store refuses (docs/gateway.md, "When the store refuses"). A slot holds a little-endian length and
/// the JSON of one ``SpooledReading``; length 0 is a free slot. A reading is written, synced, then its length
/// written and synced, so a crash leaves either the slot free or the reading whole. Mode 0600, not followed
/// through a symbolic link. A slot that cannot be freed once its reading is stored is logged (the reading is then
/// committed again, as already stored, at the next start).
public actor SpoolFile: ReadingSpool {
    /// Slots and their size: 512 readings of up to 2 KiB of JSON each, 1 MiB in all.
    static let slotCount = 512
    static let slotSize = 2048

    /// The spool file, open for reading and writing (tests swap in a read-only one to make writes fail).
    nonisolated let descriptor: Int32
    private let logger: Logger
    /// Sync identifier → slot, for every slot in use.
    private var slots: [String: Int] = [:]
    private var readings: [Reading] = []

    public enum SpoolError: Error, CustomStringConvertible {
        case cannotOpen(String, Int32)
        case full
        case tooLarge(Int)
        case writeFailed(Int32)

        public var description: String {
            switch self {
            case let .cannotOpen(path, error): "cannot open the spool \(path): \(String(cString: strerror(error)))"
            case .full: "the spool's \(SpoolFile.slotCount) slots are in use"
            case .tooLarge(let size): "a reading of \(size) bytes does not fit a spool slot"
            case .writeFailed(let error): "writing the spool failed: \(String(cString: strerror(error)))"
            }
        }
    }

    /// Opens (or creates) the spool at `path` and reads what an earlier run kept in it; `logger` receives what
    /// cannot be said to a caller (a slot that cannot be freed).
    public init(path: String, logger: Logger) throws {
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw SpoolError.cannotOpen(path, errno) }
        let size = Self.slotCount * Self.slotSize
        let result = posix_fallocate(descriptor, 0, off_t(size))
        guard result == 0 else {
            close(descriptor)
            throw SpoolError.cannotOpen(path, result)
        }
        self.descriptor = descriptor
        self.logger = logger
        var buffer = [UInt8](repeating: 0, count: Self.slotSize)
        let decoder = JSONDecoder()
        for slot in 0 ..< Self.slotCount {
            let read = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, Self.slotSize, off_t(slot * Self.slotSize)) }
            guard read == Self.slotSize else { continue }
            let length = Int(buffer[0]) | Int(buffer[1]) << 8 | Int(buffer[2]) << 16 | Int(buffer[3]) << 24
            guard length > 0, length <= Self.slotSize - 4,
                  let spooled = try? decoder.decode(SpooledReading.self, from: Data(buffer[4 ..< 4 + length])),
                  let reading = spooled.reading
            else { continue }
            slots[reading.syncIdentifier] = slot
            readings.append(reading)
        }
        readings.sort { $0.receivedAt < $1.receivedAt }
    }

    deinit { close(descriptor) }

    public func keep(_ reading: Reading) throws {
        guard slots[reading.syncIdentifier] == nil else { return }
        let json = try [UInt8](JSONEncoder().encode(SpooledReading(reading)))
        guard json.count <= Self.slotSize - 4 else { throw SpoolError.tooLarge(json.count) }
        let used = Set(slots.values)
        guard let slot = (0 ..< Self.slotCount).first(where: { !used.contains($0) }) else { throw SpoolError.full }
        let offset = slot * Self.slotSize
        try write(json, at: offset + 4)
        let length = UInt32(json.count)
        try write([UInt8(length & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length >> 16 & 0xFF), UInt8(length >> 24)], at: offset)
        slots[reading.syncIdentifier] = slot
        readings.append(reading)
    }

    public func release(_ syncIdentifier: String) {
        guard let slot = slots.removeValue(forKey: syncIdentifier) else { return }
        readings.removeAll { $0.syncIdentifier == syncIdentifier }
        do {
            try write([0, 0, 0, 0], at: slot * Self.slotSize)
        } catch {
            logger.error("Could not free the spool slot of a stored reading (\(error)): it is committed again, as already stored, when cuffd next starts",
                         metadata: ["BP_SYNC_IDENTIFIER": "\(syncIdentifier)"])
        }
    }

    public func kept() -> [Reading] { readings }

    /// Writes `bytes` at `offset` into blocks allocated at start-up, then syncs them.
    private func write(_ bytes: [UInt8], at offset: Int) throws {
        let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, bytes.count, off_t(offset)) }
        guard written == bytes.count, fdatasync(descriptor) == 0 else { throw SpoolError.writeFailed(errno) }
    }
}
