import GATTHealth
import Testing

/// What an advertisement is recognised as before anyone pairs (``CuffCatalog/recognise(_:)``, docs/compatibility.md).
@Suite("Recognising a cuff by its advertisement")
struct CuffRecognitionTests {
    static let bloodPressure = HealthService.bloodPressure.uuid

    @Test func aNameNamesAModelBeforeItsServiceNamesAFamily() throws {
        let beurer = try #require(CuffCatalog.recognise(CuffAdvertisement(name: "Beurer BM85", uuids: [Self.bloodPressure])))
        #expect(beurer.title == "Beurer BM85")
        #expect(beurer.measurementQuirk == .beurerByteSwapped)
        #expect(beurer.verdict.sentence.hasPrefix("supported, with quirk: "))
        let plain = try #require(CuffCatalog.recognise(CuffAdvertisement(name: "BP-1", uuids: [Self.bloodPressure])))
        #expect(plain.brand == "any" && plain.verdict == .supported && plain.measurementQuirk == nil)
    }

    @Test func anOmronCodeNamesItsModelOnItsOwnServiceOnly() throws {
        let classic = try #require(CuffCatalog.recognise(CuffAdvertisement(name: "HEM-7322T-D", uuids: [OmronService.uuid])))
        #expect(classic.title == "Omron HEM-7322T")
        #expect(classic.verdict.reason.contains("\"P\""))
        // The same code on the other service is another memory: only the family, read once paired (docs/omron.md §6).
        let other = try #require(CuffCatalog.recognise(CuffAdvertisement(name: "HEM-7322T", uuids: [OmronModernService.uuid])))
        #expect(other.model == "(model read once paired)")
        let modern = try #require(CuffCatalog.recognise(CuffAdvertisement(name: "HEM-7142T2", uuids: [])))
        #expect(modern.protocolKind == .omronModern && modern.verdict.reason.contains("token"))
        let unnamed = try #require(CuffCatalog.recognise(CuffAdvertisement(name: "BLESmart_0000021F", uuids: [OmronService.uuid])))
        #expect(unnamed.brand == "Omron" && unnamed.model == "(model read once paired)")
    }

    @Test func anEquivalentCodeIsItsOwnModelWithTheOthersMemory() throws {
        // hass-omron `device_catalog.py` lists HEM-7280T-AP, -D and -E among HEM-7322T's equivalent models.
        for name in ["HEM-7280T-AP", "HEM-7280T-D", "hem-7280t-e"] {
            let cuff = try #require(CuffCatalog.recognise(CuffAdvertisement(name: name, uuids: [OmronService.uuid])), "\(name)")
            #expect(cuff.title == "Omron HEM-7280T" && cuff.protocolKind == .omronClassic)
            #expect(cuff.verdict.reason.contains("read as a HEM-7322T") && cuff.verdict.reason.contains("only new records"))
            let model = try #require(OmronModel.named(name, offering: [OmronService.uuid]), "\(name)")
            #expect(model.name == "HEM-7280T" && model.equivalentOf == "HEM-7322T")
        }
        // Only a model of its own is no one's equivalent.
        #expect(OmronModel.table.filter { $0.equivalentOf != nil }.map(\.name) == ["HEM-7280T", "HEM-7281T", "HEM-7282T", "HEM-7321T", "HEM-7183T1"])
        // The profile's other codes (HEM-7321T-CA, _TI-Z, -ZV), each read as a HEM-7322T under its own model's name.
        for (name, model) in [("HEM-7321T-CA", "HEM-7321T"), ("HEM-7321T_TI-Z", "HEM-7321T"), ("HEM-7281T", "HEM-7281T"), ("BLESmart HEM-7282T", "HEM-7282T")] {
            let found = try #require(OmronModel.named(name, offering: [OmronService.uuid]), "\(name)")
            #expect(found.name == model && found.equivalentOf == "HEM-7322T")
        }
    }

    @Test(arguments: [
        ("HEM-7380T1-EOSL", "HEM-7380T1"), ("HEM-7380T1-EBK", "HEM-7380T1"), ("HEM-7384T1-NBBR", "HEM-7380T1"),
        ("HEM-7196T1-FLE", "HEM-7196T1"), ("HEM-7194T1_FLIN", "HEM-7196T1"),
    ])
    func anOmronModelCuffdRefusesIsRefusedByName(_ name: String, _ model: String) throws {
        // The codes hass-omron's `device_catalog.py` lists for each profile (docs/compatibility.md).
        let cuff = try #require(CuffCatalog.recognise(CuffAdvertisement(name: name, uuids: [OmronModernService.uuid])), "\(name)")
        #expect(cuff.title == "Omron " + model && cuff.protocolKind == .omronModern)
        #expect(cuff.verdict.word == "unsupported")
        #expect(cuff.refusal?.hasPrefix("the Omron \(model) is not supported: ") == true)
        #expect(cuff.refusal?.contains("anew") == true, "the reason names the bond made anew on every link")
        #expect(CuffCatalog.omronRefusal(name, offering: [OmronModernService.uuid]) == cuff.refusal)
        // Nor is it a model whose memory cuffd reads.
        #expect(OmronModel.named(name) == nil)
    }

    @Test(arguments: [
        ("X2+ Connect_C1C5AB252860", "HEM-7188T1"), ("HEM-7188T1-LEO", "HEM-7188T1"), ("HEM-7183T1-AP", "HEM-7183T1"),
    ])
    func theHEM7188T1IsReadBondingAnewOnEveryLink(_ name: String, _ model: String) throws {
        // Its codes (hass-omron `device_catalog.py`) and the X2+ Connect's advertised name from hass-omron's issue
        // "HEM-7188T1-LEO" (docs/compatibility.md): a model cuffd reads, on the 0xFE4A service only.
        let cuff = try #require(CuffCatalog.recognise(CuffAdvertisement(name: name, uuids: [OmronModernService.uuid])), "\(name)")
        #expect(cuff.title == "Omron " + model && cuff.protocolKind == .omronModern)
        #expect(cuff.refusal == nil && cuff.verdict.word == "quirk")
        #expect(CuffCatalog.omronRefusal(name, offering: [OmronModernService.uuid]) == nil)
        let read = try #require(OmronModel.named(name, offering: [OmronModernService.uuid]))
        #expect(read.name == model && read.bondsAnewEveryLink && read.stack == .modern(tokenUnlock: true))
        #expect(read.layout == .littleEndian16 && read.userStartAddresses == [0x01C4] && read.slotsPerUser == 30 && !read.hasCounters)
        #expect(OmronModel.named(name, offering: [OmronService.uuid]) == nil)
        if case .quirk(let notes) = cuff.verdict { #expect(notes.contains("forgets its bond after each link"), "\(notes)") }
    }

    @Test func aRefusedCodeOnTheClassicServiceIsOnlyTheFamily() throws {
        // A code names one firmware (docs/omron.md §6): on the classic service it is no refused model, read once paired.
        let other = try #require(CuffCatalog.recognise(CuffAdvertisement(name: "HEM-7380T1", uuids: [OmronService.uuid])))
        #expect(other.model == "(model read once paired)")
        #expect(CuffCatalog.omronRefusal("HEM-7380T1", offering: [OmronService.uuid]) == nil)
        #expect(CuffCatalog.omronRefusal("HEM-7142T2", offering: [OmronModernService.uuid]) == nil)
        #expect(CuffCatalog.recognise(CuffAdvertisement(name: "X2 Smart+ HEM-7146T2", uuids: [OmronModernService.uuid]))?.model == "HEM-7146T2")
    }

    @Test func aModelWithoutCountersOrClockSaysSo() throws {
        let complete = try #require(CuffCatalog.recognise(CuffAdvertisement(name: "HEM-7530T")))
        #expect(complete.verdict.reason.contains("every slot"))
        let bp7250 = try #require(CuffCatalog.recognise(CuffAdvertisement(name: "HEM-7150T")))
        #expect(bp7250.verdict.reason.contains("clock is not set"))
    }

    @Test func aDeviceThatIsNoCuffIsNotRecognised() {
        #expect(CuffCatalog.recognise(CuffAdvertisement(name: "Keyboard K380", uuids: ["00001812-0000-1000-8000-00805f9b34fb"])) == nil)
        #expect(CuffCatalog.recognise(CuffAdvertisement(name: nil)) == nil)
    }

    @Test func theVerdictTravelsAsWordAndReason() {
        for model in CuffCatalog.models + CuffCatalog.families {
            #expect(CuffVerdict(word: model.verdict.word, reason: model.verdict.reason) == model.verdict, "\(model.title)")
        }
        #expect(CuffVerdict(word: "maybe", reason: "") == nil)
    }

    @Test func theDiscoveryFilterLetsEveryFamilyThrough() {
        let services = CuffCatalog.advertisedServices
        #expect(services.contains(Self.bloodPressure) && services.contains(HealthService.heartRate.uuid))
        #expect(OmronStack.serviceUUIDs.allSatisfy(services.contains))
        #expect(Set(services).count == services.count)
    }
}
