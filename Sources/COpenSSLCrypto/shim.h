// OpenSSL's libcrypto (Debian's libssl-dev), for the HMAC-SHA256 of cuff-forward's HTTP sink (HMAC(3ssl)): the
// OpenSSL libpq's and libcurl's TLS already load, rather than a second implementation compiled into the program.
#include <openssl/evp.h>
#include <openssl/hmac.h>
