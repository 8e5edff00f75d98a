import CuffSimulation
import Foundation

/// Reads and validates a scenario; exits 66 when unreadable, 65 when invalid (docs/cuff-sim.md).
func loadScenario(_ path: String) -> Scenario {
    let data: Data
    do {
        data = try ScenarioFile.read(path)
    } catch {
        fail(error.description, status: 66)
    }
    do {
        return try Scenario.parse(data)
    } catch {
        fail("\(path): \(error)", status: 65)
    }
}

/// One line on standard error, then exit with `status`.
func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("cuff-sim: \(message)\n".utf8))
    Foundation.exit(status)
}
