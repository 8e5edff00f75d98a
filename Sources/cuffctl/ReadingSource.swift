import ArgumentParser
import DBus
import HealthStore
import ReadingQueries

/// Where `export` and `report` read readings: cuffd over the bus with the caller's rights, or with `--store` a
/// store file opened read-only in cuffctl itself (docs/export.md, "Reading and writing").
struct ReadingSource: ParsableArguments {
    @OptionGroup var bus: BusOptions
    @Option(help: "Read the store FILE directly, read-only (an administrator's or a backup), instead of asking cuffd.") var store: String?

    /// The pages of readings matching `filter`, or with `heartRates` of heart-rate sensors' samples.
    func pages(_ filter: [String: DBusVariant], heartRates: Bool = false) throws -> ReadingPages {
        guard let store else { return ReadingPages(cuffd: try CuffdConnection(bus), heartRates: heartRates, filter: filter) }
        do {
            return ReadingPages(store: StoreReadingPages(store: try HealthStore.openReadOnly(path: store)), heartRates: heartRates, filter: filter)
        } catch {
            throw CuffctlFailure(message: "\(store): \(error)", status: ExitStatus.malformedPayload)
        }
    }
}
