package webhook

// VerificationError says why a delivery was not accepted. Reason is one of the TypeScript
// package's codes: invalid_secret, missing_header, invalid_timestamp, timestamp_too_old,
// timestamp_too_new, invalid_signature (Verify); invalid_payload, invalid_event,
// unknown_event_type (Parse).
type VerificationError struct {
	Reason  string
	Message string
}

func refuse(reason, message string) *VerificationError {
	return &VerificationError{Reason: reason, Message: message}
}

func (e *VerificationError) Error() string { return e.Reason + ": " + e.Message }

// Problem is an RFC 9457 problem document, the body of every refusal.
type Problem struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail,omitempty"`
	Code   string `json:"code,omitempty"`
}

// Problem is the answer to the refused delivery, as the TypeScript package's toProblem() makes
// it: 401 for a signature or a timestamp (not the service's delivery), 400 for a signed body
// that is no event, 500 for a secret that is not one (the receiver's own fault). Any of them
// changes nothing; the service retries a 5xx, and stops at a 4xx.
func (e *VerificationError) Problem() Problem {
	status, title := 401, "Webhook verification failed"
	switch e.Reason {
	case "invalid_payload", "invalid_event", "unknown_event_type":
		status, title = 400, "Invalid webhook event"
	case "invalid_secret":
		status, title = 500, "Webhook receiver misconfigured"
	}
	code := "webhook_" + e.Reason
	return Problem{Type: "https://docs.payin.example.com/problems/" + code, Title: title, Status: status, Detail: e.Message, Code: code}
}
