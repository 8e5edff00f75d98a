#include "gatt_decode.h"

static uint16_t le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

int bpm_decode(const uint8_t *bytes, size_t count, bpm_value *out) {
    if (count < 1) return -1;
    uint8_t flags = bytes[0];
    size_t required = 7 + 7 * ((flags >> 1) & 1) + 2 * ((flags >> 2) & 1) + ((flags >> 3) & 1) + 2 * ((flags >> 4) & 1);
    if (count < required) return -1;
    const uint8_t *p = bytes + 1;
    out->flags = flags;
    out->systolic = le16(p);
    out->diastolic = le16(p + 2);
    out->mean_arterial_pressure = le16(p + 4);
    p += 6;
    out->has_time_stamp = (flags >> 1) & 1;
    if (out->has_time_stamp) {
        out->year = le16(p);
        out->month = p[2];
        out->day = p[3];
        out->hours = p[4];
        out->minutes = p[5];
        out->seconds = p[6];
        p += 7;
    }
    out->has_pulse_rate = (flags >> 2) & 1;
    if (out->has_pulse_rate) { out->pulse_rate = le16(p); p += 2; }
    out->has_user_id = (flags >> 3) & 1;
    if (out->has_user_id) { out->user_id = p[0]; p += 1; }
    out->has_status = (flags >> 4) & 1;
    if (out->has_status) { out->status = le16(p); }
    out->trailing_bytes = count - required;
    return 0;
}

int hrm_decode(const uint8_t *bytes, size_t count, hrm_value *out) {
    if (count < 1) return -1;
    uint8_t flags = bytes[0];
    size_t value_length = 1 + (flags & 1);
    int has_energy = (flags >> 3) & 1, has_rr = (flags >> 4) & 1;
    size_t required = 1 + value_length + 2 * has_energy + 2 * has_rr;
    if (count < required) return -1;
    size_t i = 1;
    out->flags = flags;
    out->heart_rate = value_length == 2 ? le16(bytes + i) : bytes[i];
    i += value_length;
    out->has_energy_expended = has_energy;
    if (has_energy) { out->energy_expended = le16(bytes + i); i += 2; }
    out->has_rr_intervals = has_rr;
    size_t pairs = has_rr ? (count - i) / 2 : 0;
    size_t kept = pairs < HRM_RR_CAPACITY ? pairs : HRM_RR_CAPACITY;
    for (size_t k = 0; k < kept; k++, i += 2) out->rr_intervals[k] = le16(bytes + i);
    out->rr_count = kept;
    out->rr_omitted = pairs - kept;
    i += 2 * out->rr_omitted;
    out->trailing_bytes = count - i;
    return 0;
}
