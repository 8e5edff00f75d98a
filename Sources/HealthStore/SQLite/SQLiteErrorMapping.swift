import GRDB

/// Maps SQLite result codes to ``HealthStoreError`` (the store's contract: "full disk → SQLite error mapped to a
/// clear case"). Codes: https://sqlite.org/rescode.html.
enum SQLiteErrorMapping {
    static func map(_ error: any Error) -> HealthStoreError {
        if let error = error as? HealthStoreError { return error }
        guard let error = error as? DatabaseError else { return .storage(code: -1, message: "\(error)") }
        switch error.resultCode {
        case .SQLITE_FULL: return .diskFull
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: return .databaseCorrupt(error.message ?? "")
        case .SQLITE_BUSY, .SQLITE_LOCKED: return .databaseBusy
        case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_IOERR, .SQLITE_AUTH:
            return .storageUnavailable("\(error.resultCode): \(error.message ?? "")")
        default: return .storage(code: error.extendedResultCode.rawValue, message: error.message ?? "")
        }
    }
}
