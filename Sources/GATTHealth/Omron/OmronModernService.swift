/// Omron's newer service, 0xFE4A, which newer cuffs offer instead of ``OmronService`` (docs/omron.md §1, §3; hass-omron
/// `omron_ble/const.py` `MODERN_STACK_PARENT_SERVICE_UUID`, `device_catalog.py` `_MODERN_OS_BONDING_BASE`): one
/// transmit channel, written without response with the whole packet, and one receive channel, notifying the whole
/// packet at once (`omron_driver.py` `_write_command_and_wait_reply`, `_on_notify_channel_data`,
/// `devices.py` `is_single_channel`). Both keep the UUIDs of the classic service's channel 0; the unlock
/// characteristic keeps its UUID too (`devices.py` `unlock_uuid`, which the 0xFE4A profiles do not change).
public enum OmronModernService {
    /// The service as BlueZ's `UUIDs` property spells it.
    public static let uuid = "0000fe4a-0000-1000-8000-00805f9b34fb"
    /// Host → cuff: the whole packet in one Write Command.
    public static let transmitChannel = OmronService.transmitChannels[0]
    /// Cuff → host: the whole packet in one notification.
    public static let receiveChannel = OmronService.receiveChannels[0]
}
