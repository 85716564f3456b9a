// A TLS key and self-signed certificate for servers on this machine's loopback (localhost,
// 127.0.0.1, ::1), valid to 2126: the conformance kit's flow receiver listens with them, so that
// the webhook URL it registers is `https://`, as the contract requires. They are public, part of
// the package, and secure nothing: the sandbox does not verify a loopback receiver's certificate
// (decision D21), and no other client should trust this one.
// Made with: openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 36500
//   -subj "/CN=localhost" -addext "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1"
export const LOOPBACK_TLS = {
  key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgn1aSA6deXIpFcRpf
k5j9rxaMSOCG5qaLIgbYwH7M/EKhRANCAAQq6UQbxXzQqWj/ZQ9Me1N61gd+Vl6e
s6Q94wOSoxF7qhXOwUPSpKI7/PDPE8jpk2xvHyF6cDADIDMjNLWSjB3N
-----END PRIVATE KEY-----
`,
  cert: `-----BEGIN CERTIFICATE-----
MIIBrjCCAVSgAwIBAgIUMUoVMg0qO0VIGzmz/8s/8oBGkZEwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyNTAyMTgxMFoYDzIxMjYxMTAx
MDIxODEwWjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAAQq6UQbxXzQqWj/ZQ9Me1N61gd+Vl6es6Q94wOSoxF7qhXOwUPSpKI7
/PDPE8jpk2xvHyF6cDADIDMjNLWSjB3No4GBMH8wHQYDVR0OBBYEFICc+r2/Xz+4
mQRnRKP4M+0kv0xiMB8GA1UdIwQYMBaAFICc+r2/Xz+4mQRnRKP4M+0kv0xiMA8G
A1UdEwEB/wQFMAMBAf8wLAYDVR0RBCUwI4IJbG9jYWxob3N0hwR/AAABhxAAAAAA
AAAAAAAAAAAAAAABMAoGCCqGSM49BAMCA0gAMEUCIBYWF/VyU/ASg5XI+Ez8tZ1N
6WloS5RgNOn8peDv514LAiEA4t1nmcl4HiQ+WPssE/lprw83XZVhwVtqr2QxT/WO
iO8=
-----END CERTIFICATE-----
`,
} as const;
