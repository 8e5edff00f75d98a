/// One format of `cuffctl export` (docs/export.md), written as a stream: the text before the first reading,
/// each reading's text as its page arrives, the text after the last — so no more than a page is ever held.
protocol ExportFormatter {
    /// Written before the first reading (a header row, a Bundle's opening).
    var opening: String { get }
    /// Appends the UTF-8 text of one reading to `output`; a formatter may remember what it already wrote (a
    /// Patient, a separator).
    mutating func append(_ reading: ReadingOutput, to output: inout [UInt8])
    /// Appends the UTF-8 text of one heart-rate sensor's sample.
    mutating func appendHeartRate(_ sample: HeartRateOutput, to output: inout [UInt8])
    /// Written after the last reading.
    var closing: String { get }
}
