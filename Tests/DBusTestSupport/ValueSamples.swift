import DBus
import Foundation

/// One value of every D-Bus type, alone and nested, for round trips through the bus.
public enum ValueSamples {
    public static func all() throws -> [DBusValue] {
        let pipe = Pipe()
        let properties: DBusValue = .dictionary(key: .string, value: .variant, [
            DBusDictionaryEntry(.string("Address"), .variant(.string("C4:F3:12:53:F2:C9"))),
            DBusDictionaryEntry(.string("RSSI"), .variant(.int16(-61))),
            DBusDictionaryEntry(.string("UUIDs"), .variant(.array(.string, [.string("00001810-0000-1000-8000-00805f9b34fb")]))),
        ])
        return [
            .byte(0xC9), .boolean(true), .boolean(false), .int16(-32768), .uint16(65535), .int32(-2_147_483_648),
            .uint32(4_294_967_295), .int64(-9_223_372_036_854_775_807), .uint64(18_446_744_073_709_551_615),
            .double(-120.5), .string("systolic 120 mmHg, ümlaut ✓"), .string(""),
            .objectPath("/org/bluez/hci0/dev_C4_F3_12_53_F2_C9"), .objectPath("/"), .signature("a{oa{sa{sv}}}"),
            .unixFD(try UnixFileDescriptor(duplicating: pipe.fileHandleForWriting.fileDescriptor)),
            .bytes([]), .bytes([0x1E, 0x78, 0x00, 0x50, 0x00, 0x64, 0x00, 0xE8, 0x07, 0x06, 0x17]),
            .array(.string, [.string("a"), .string("b")]), .array(.string, []),
            .doubles([]), .doubles([118, 76.5, -.infinity, .greatestFiniteMagnitude]), .int64s([]), .int64s([-1, 0, .max, .min]),
            .array(.array(.double), [.doubles([1]), .doubles([])]),
            .array(.array(.byte), [.bytes([1, 2]), .bytes([])]),
            .array(.variant, [.variant(.uint32(7)), .variant(.string("x"))]),
            properties,
            .dictionary(key: .objectPath, value: .dictionary(key: .string, value: .dictionary(key: .string, value: .variant)), [
                DBusDictionaryEntry(.objectPath("/org/bluez/hci0"), .dictionary(key: .string, value: .dictionary(key: .string, value: .variant), [
                    DBusDictionaryEntry(.string("org.bluez.Adapter1"), properties),
                ])),
            ]),
            .dictionary(key: .byte, value: .string, [DBusDictionaryEntry(.byte(1), .string("one"))]),
            .structure([.int32(-1), .string("s"), .variant(.bytes([0xFF]))]),
            .array(.structure([.byte, .byte, .array(.byte)]), [.structure([.byte(0), .byte(0x16), .bytes([0x10, 0x18])])]),
            .variant(.variant(.double(0.25))),
        ]
    }
}
