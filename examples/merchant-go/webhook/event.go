package webhook

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// Event is a verified delivery's event: the envelope and the data the shop reads.
type Event struct {
	ID        string    `json:"id"`
	Type      string    `json:"type"`
	Timestamp string    `json:"timestamp"`
	Data      EventData `json:"data"`
}

// EventData is what session and transaction events carry: identifiers and the state announced.
// TransactionID is set on transaction events only, FailureReason on transaction-failed.
type EventData struct {
	TransactionID  string  `json:"transaction_id"`
	SessionID      string  `json:"session_id"`
	CounterpartyID string  `json:"counterparty_id"`
	OrderID        string  `json:"order_id"`
	Status         string  `json:"status"`
	Amount         float64 `json:"amount"`
	Currency       string  `json:"currency"`
	FailureReason  string  `json:"failure_reason"`
}

// EventTypes are the seven events this shop knows; the service may add others later.
var EventTypes = map[string]bool{
	"session-created":       true,
	"session-completed":     true,
	"session-expired":       true,
	"transaction-created":   true,
	"transaction-completed": true,
	"transaction-failed":    true,
	"transaction-settled":   true,
}

// IsTransactionEvent says whether the event announces a change of a transaction (its data has a
// transaction_id), which the shop fetches: the transaction is the truth, not the event.
func (e Event) IsTransactionEvent() bool { return strings.HasPrefix(e.Type, "transaction-") }

// Parse reads the event of a body that Verify accepted. An authentic event of a type added after
// this shop was written is a *VerificationError with Reason unknown_event_type, to be acknowledged
// and ignored; a body that is not JSON, or not an event, is invalid_payload or invalid_event.
func Parse(body []byte, webhookID string) (Event, error) {
	// JSON is UTF-8; Go's decoder would take other bytes, changed into U+FFFD.
	if !utf8.Valid(body) || !json.Valid(body) {
		return Event{}, refuse("invalid_payload", "The body is not UTF-8 JSON.")
	}
	var envelope struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(body, &envelope) != nil || envelope.Type == "" {
		return Event{}, refuse("invalid_event", "The body has no event type: it is not an event.")
	}
	if !EventTypes[envelope.Type] {
		return Event{}, refuse("unknown_event_type", "The event type "+envelope.Type+" is not one this shop knows: acknowledged and ignored.")
	}
	var event Event
	if err := json.Unmarshal(body, &event); err != nil {
		return Event{}, refuse("invalid_event", "The "+envelope.Type+" event breaks its schema: "+err.Error()+".")
	}
	// The fields the shop relies on; the contract's schemas say more, which the shop does not read.
	switch {
	case event.ID != webhookID:
		return Event{}, refuse("invalid_event", "The event id "+event.ID+" differs from the webhook-id header "+webhookID+".")
	case event.Data.SessionID == "" || event.Data.Status == "":
		return Event{}, refuse("invalid_event", "The "+event.Type+" event has no data.session_id or data.status.")
	case event.IsTransactionEvent() && event.Data.TransactionID == "":
		return Event{}, refuse("invalid_event", "The "+event.Type+" event has no data.transaction_id.")
	}
	return event, nil
}
