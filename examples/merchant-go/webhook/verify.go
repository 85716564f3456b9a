// Package webhook verifies the service's webhook deliveries (Standard Webhooks signatures) and
// reads their events, as the TypeScript package's verifyWebhook does, with the standard library.
package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// ToleranceSeconds is how far a delivery's webhook-timestamp may be from now, either way: an
// older delivery is a replay of one recorded earlier.
const ToleranceSeconds = 300

var (
	timestampPattern = regexp.MustCompile(`^[0-9]{1,12}$`)
	base64Pattern    = regexp.MustCompile(`^[A-Za-z0-9+/]*={0,2}$`)
)

// docs:verify:start

// Verify checks a delivery's Standard Webhooks signature, before anything reads its body: the
// three headers are there, the timestamp is within ToleranceSeconds of now, and one of the v1
// signatures is the HMAC-SHA256 of "{id}.{timestamp}.{body}" under one of the secrets (several
// while a secret rotates). now is the caller's clock. It returns nil, or a *VerificationError
// whose Reason says which check failed, in this order.
func Verify(body []byte, headers http.Header, secrets []string, now time.Time) error {
	keys := make([][]byte, 0, len(secrets))
	for _, secret := range secrets {
		key, err := secretKey(secret)
		if err != nil {
			return err
		}
		keys = append(keys, key)
	}
	if len(keys) == 0 {
		return refuse("invalid_secret", "No signing secret is configured.")
	}

	id := headerValue(headers, "webhook-id")
	timestamp := headerValue(headers, "webhook-timestamp")
	signatures := headerValue(headers, "webhook-signature")
	switch {
	case id == "":
		return refuse("missing_header", "The webhook-id header is missing.")
	case timestamp == "":
		return refuse("missing_header", "The webhook-timestamp header is missing.")
	case signatures == "":
		return refuse("missing_header", "The webhook-signature header is missing.")
	}

	if !timestampPattern.MatchString(timestamp) {
		return refuse("invalid_timestamp", "The webhook-timestamp header is not a Unix time in seconds: "+strconv.Quote(timestamp)+".")
	}
	signedAt, _ := strconv.ParseInt(timestamp, 10, 64) // 12 digits at most: it fits
	skew := now.Unix() - signedAt
	if skew > ToleranceSeconds {
		return refuse("timestamp_too_old", "The delivery was signed "+strconv.FormatInt(skew, 10)+" s ago, more than the tolerance.")
	}
	if skew < -ToleranceSeconds {
		return refuse("timestamp_too_new", "The delivery is signed "+strconv.FormatInt(-skew, 10)+" s in the future, more than the tolerance.")
	}

	// Space-separated entries ("v1,<base64>", maybe other versions); a header repeated by a proxy
	// comes joined with ", ". Every entry is compared under every key, in constant time, so the
	// time taken does not tell an attacker how close a guess came, nor which entry matched.
	matched := false
	for _, key := range keys {
		expected := []byte(signature(key, id, timestamp, body))
		for _, entry := range strings.Split(signatures, " ") {
			entry = strings.TrimSuffix(entry, ",")
			if !strings.HasPrefix(entry, "v1,") {
				continue // another scheme's signature: not ours to check
			}
			if subtle.ConstantTimeCompare([]byte(entry), expected) == 1 {
				matched = true
			}
		}
	}
	if !matched {
		return refuse("invalid_signature", "No v1 signature in webhook-signature matches the body under this secret.")
	}
	return nil
}

// signature is the v1 signature the service sends for a delivery: "v1," and the base64 of the
// HMAC-SHA256 of "{id}.{timestamp}.{body}", the body's exact bytes.
func signature(key []byte, id, timestamp string, body []byte) string {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + timestamp + "."))
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// docs:verify:end

// secretKey is the HMAC key of a signing secret: "whsec_" and standard, padded base64 (the
// prefix may be left off).
func secretKey(secret string) ([]byte, error) {
	encoded := strings.TrimPrefix(secret, "whsec_")
	// base64.StdEncoding alone would skip line breaks; the TypeScript package takes none.
	if !base64Pattern.MatchString(encoded) || len(encoded)%4 != 0 {
		return nil, refuse("invalid_secret", "The signing secret must be whsec_ followed by base64.")
	}
	key, err := base64.StdEncoding.DecodeString(encoded)
	if err != nil || len(key) == 0 {
		return nil, refuse("invalid_secret", "The signing secret must be whsec_ followed by base64.")
	}
	return key, nil
}

// headerValue is a header's value, its repeats joined with ", " as a proxy (or Node) joins them.
func headerValue(headers http.Header, name string) string {
	return strings.Join(headers.Values(name), ", ")
}
