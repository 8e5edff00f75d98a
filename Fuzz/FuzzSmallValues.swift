// Invariants of the fixed-length values (0x2A49, 0x2A38, 0x2A39, 0x2A08, 0x2A2B, 0x2A23, 0x2A50, 0x2A19),
// the Device Information strings (docs/reference/GATT-HEALTH.md §11) and SFLOAT/FLOAT (§3).

/// A fixed-length value decodes exactly when its length is there (else `.truncated` with that length)
/// and re-encodes to its first bytes, every bit kept.
func checkFixedLength<Value: GATTCharacteristicValue & Equatable>(_ bytes: UnsafeRawBufferPointer, as: Value.Type, length: Int) {
    let result = outcome { () throws(GATTDecodingError) in try Value(decoding: bytes) }
    guard bytes.count >= length else {
        return expectTruncation(result, required: length, actual: bytes.count, "\(Value.characteristic.name)")
    }
    guard let value = expectValue(result, "\(Value.characteristic.name)") else { return }
    invariant(value.encoded() == prefix(bytes, length), "re-encoding changed \(Value.characteristic.name)")
    invariant((try? Value(decoding: value.encoded())) == value, "\(Value.characteristic.name): decode(encode(x)) != x")
}

/// Date Time (§10): fields at their offsets; `isKnown` is the calendar check (year 1582–9999, a day that
/// exists in that month, 24 h, 60 min, 60 s); a known time prints as zero-padded `YYYY-MM-DDTHH:MM:SS`.
func checkDateTime(_ bytes: UnsafeRawBufferPointer) {
    checkFixedLength(bytes, as: DateTime.self, length: 7)
    guard bytes.count >= 7, let stamp = try? DateTime(decoding: bytes) else { return }
    invariant(stamp == dateTime(bytes, 0), "Date Time fields misread")
    let (year, month, day) = (Int(stamp.year), Int(stamp.month), Int(stamp.day))
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    let monthLength = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    let known = (1582 ... 9999).contains(year) && (1 ... 12).contains(month) && day >= 1 && day <= monthLength[max(0, min(11, month - 1))]
        && stamp.hours < 24 && stamp.minutes < 60 && stamp.seconds < 60
    invariant(stamp.isKnown == known, "isKnown disagrees with the calendar")
    guard known else { return invariant(stamp.isoString == nil, "an unknown time printed") }
    func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: width - text.count) + text
    }
    let iso = "\(digits(year, 4))-\(digits(month, 2))-\(digits(day, 2))T\(digits(Int(stamp.hours), 2)):"
        + "\(digits(Int(stamp.minutes), 2)):\(digits(Int(stamp.seconds), 2))"
    invariant(stamp.isoString == iso, "ISO text \(stamp.isoString ?? "nil"), expected \(iso)")
}

/// Device Information strings never fail; trailing NULs are dropped and nothing else: valid UTF-8 comes
/// back byte for byte, and invalid UTF-8 is repaired, not cut; escaped for a person, no control is left.
func checkDeviceInformationString(_ bytes: UnsafeRawBufferPointer) {
    let string = DeviceInformationString(decoding: bytes)
    var kept = Array(bytes)
    while kept.last == 0 { kept.removeLast() }
    invariant(!string.value.hasSuffix("\0"), "a trailing NUL survived")
    if let valid = String(validating: kept, as: UTF8.self) {
        invariant(string.value == valid && string.encoded() == kept, "a valid UTF-8 string changed")
    } else {
        invariant(string.value.unicodeScalars.contains("\u{FFFD}"), "invalid UTF-8 not repaired")
    }
    // As cuffctl and cuffd's log show it to a person (docs/cuffctl.md, "Strings from devices"): nothing a terminal acts
    // on or takes for a line break is left — no control character (Cc), line or paragraph separator, or bidirectional
    // embedding, override or isolate — and a string that has none of them, nor a backslash, is shown as it is.
    let shown = TerminalText.escaped(string.value)
    invariant(!shown.unicodeScalars.contains { scalar in
        [.control, .lineSeparator, .paragraphSeparator].contains(scalar.properties.generalCategory)
            || (scalar.properties.isBidiControl && !["\u{200E}", "\u{200F}", "\u{061C}"].contains(scalar))
    }, "a character a terminal acts on was shown")
    invariant(string.value.unicodeScalars.contains(where: TerminalText.needsEscaping) || shown == string.value, "plain text was changed")
}

/// SFLOAT (first two bytes) and FLOAT (first four): specials exactly on the five whole patterns; finite
/// values rebuild from their parts, print with as many decimals as the exponent says, and that text
/// parses to `doubleValue` exactly wherever both are correctly rounded (|exponent| ≤ 22).
func checkMedicalFloats(_ bytes: UnsafeRawBufferPointer) {
    guard bytes.count >= 4 else { return }
    let short = MedFloat16(bitPattern: littleEndian16(bytes, 0))
    let long = MedFloat32(bitPattern: littleEndian32(bytes, 0))
    invariant((short.special != nil) == [0x07FF, 0x0800, 0x07FE, 0x0802, 0x0801].contains(short.bitPattern), "SFLOAT special misclassified")
    invariant((long.special != nil) == [0x007F_FFFF, 0x0080_0000, 0x007F_FFFE, 0x0080_0002, 0x0080_0001].contains(long.bitPattern), "FLOAT special misclassified")
    // Table in §3: SFLOAT exponent bits 15–12, mantissa bits 11–0; FLOAT bits 31–24 and 23–0, two's complement.
    let shortMantissa = Int32(short.bitPattern & 0x0FFF) - (short.bitPattern & 0x0800 != 0 ? 0x1000 : 0)
    let shortExponent = Int8(short.bitPattern >> 12) - (short.bitPattern & 0x8000 != 0 ? 16 : 0)
    invariant(short.mantissa == shortMantissa && short.exponent == shortExponent, "SFLOAT parts misread")
    let longMantissa = Int32(long.bitPattern & 0xFF_FFFF) - (long.bitPattern & 0x80_0000 != 0 ? 0x100_0000 : 0)
    invariant(long.mantissa == longMantissa && long.exponent == Int8(bitPattern: UInt8(long.bitPattern >> 24)), "FLOAT parts misread")
    checkFloatText(short, "SFLOAT")
    checkFloatText(long, "FLOAT")
    if short.isFinite, short.mantissa.magnitude <= MedFloat16.maximumEncodedMantissa {
        invariant(MedFloat16(mantissa: short.mantissa, exponent: short.exponent) == short, "SFLOAT parts do not rebuild it")
    }
    if long.isFinite, long.mantissa.magnitude <= MedFloat32.maximumEncodedMantissa {
        invariant(MedFloat32(mantissa: long.mantissa, exponent: long.exponent) == long, "FLOAT parts do not rebuild it")
    }
}

private func checkFloatText(_ value: some MedicalFloat, _ what: String) {
    let text = value.description
    guard let special = value.special else {
        // `-`? digits (`.` digits)?: as many decimals as the exponent says, a whole part that is a plain
        // number (`0.5`, never `.5` or `00.5`).
        let parts = text.drop { $0 == "-" }.split(separator: ".", omittingEmptySubsequences: false)
        let whole = parts[0], decimals = parts.count > 1 ? parts[1].count : 0
        invariant(parts.count <= 2 && parts.allSatisfy { $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }, "\(what) \(text): not a decimal")
        invariant(decimals == max(0, -Int(value.exponent)), "\(what) \(text): decimals disagree with exponent \(value.exponent)")
        invariant(!whole.isEmpty && (whole == "0" || value.mantissa == 0 || whole.first != "0"), "\(what) \(text): whole part malformed")
        invariant(text.hasPrefix("-") == (value.mantissa < 0), "\(what) \(text): sign disagrees with the mantissa")
        if value.exponent.magnitude <= 22 {
            invariant(Double(text) == value.doubleValue, "\(what) \(text) parses to \(Double(text) ?? .nan), doubleValue \(value.doubleValue)")
        } else {
            invariant(!value.doubleValue.isNaN, "a finite \(what) became NaN")
        }
        return
    }
    invariant(text == special.rawValue, "\(what) special printed as \(text)")
    switch special {
    case .positiveInfinity: invariant(value.doubleValue == .infinity, "\(what) +INF converts wrongly")
    case .negativeInfinity: invariant(value.doubleValue == -.infinity, "\(what) -INF converts wrongly")
    case .nan, .notAtThisResolution, .reserved: invariant(value.doubleValue.isNaN, "\(what) \(text) converts to a number")
    }
}
