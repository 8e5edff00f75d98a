extension Array where Element == UInt8 {
    /// The bytes in consecutive pieces of `size`, the last one shorter when they do not divide evenly: how a frame
    /// longer than one write or notification goes over the air (docs/omron.md §3, docs/reference/GATT-HEALTH.md §13.12).
    public func pieces(of size: Int) -> [[UInt8]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0 ..< Swift.min($0 + size, count)]) }
    }
}
