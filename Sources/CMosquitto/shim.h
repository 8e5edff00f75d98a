// libmosquitto, Eclipse Mosquitto's MQTT 5.0/3.1.1 client library (mosquitto.h; docs/home-assistant.md says why
// this library), from Debian's libmosquitto-dev.
#include <mosquitto.h>
#include <mqtt_protocol.h>
