package shop

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"sync"
	"time"

	"payin-merchant/webhook"
)

// maxBody bounds a delivery's body: an event is a few hundred bytes, and a body past this is
// refused rather than read into memory.
const maxBody = 1 << 20

// docs:handler:start

// handleWebhook answers one delivery, in three steps: verify it, dedupe it on the event id, and
// process it (on a transaction event, fetch the transaction and update the order from it). A
// delivery that fails verification is refused with 4xx; when the shop's own processing fails, the
// answer is 503, and the service delivers the event again.
func (s *Shop) handleWebhook(w http.ResponseWriter, r *http.Request) {
	// The raw body, exactly as received: the signature is over these bytes. Reading stops at 1 MB.
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		writeProblem(w, unreadBody(err))
		return
	}

	// 1. Verify the signature before reading anything the body says.
	if err := webhook.Verify(body, r.Header, s.secrets, time.Now()); err != nil {
		refuse(w, err)
		return
	}
	event, err := webhook.Parse(body, r.Header.Get("webhook-id"))
	var unreadable *webhook.VerificationError
	if errors.As(err, &unreadable) && unreadable.Reason == "unknown_event_type" {
		// Authentic, of a type added after this shop was written: acknowledged, or the service
		// retries it for days (decision D22).
		log.Printf("ignored: %s", unreadable.Message)
		w.WriteHeader(http.StatusNoContent)
		return
	} else if err != nil {
		refuse(w, err)
		return
	}

	// 2. Dedupe: deliveries come at least once, with the same event id.
	if s.processed.has(event.ID) {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	// 3. Process, then record the event as processed, only once that succeeded: recorded before,
	// a failure would make its redelivery look like a duplicate, and the event would be lost.
	if err := s.process(r.Context(), event); err != nil {
		log.Printf("%s %s not handled, the service will deliver it again: %v", event.Type, event.ID, err)
		writeProblem(w, webhook.Problem{Type: "about:blank", Title: "Service Unavailable", Status: 503, Detail: "Not handled; deliver it again."})
		return
	}
	s.processed.add(event.ID)
	w.WriteHeader(http.StatusNoContent)
}

// process updates the order an event is about. A transaction event is fetched: the transaction
// is the truth, the event only says that something changed (and may come late or out of order).
func (s *Shop) process(ctx context.Context, event webhook.Event) error {
	if event.IsTransactionEvent() {
		transaction, err := s.payin.GetTransaction(ctx, event.Data.TransactionID)
		if err != nil {
			return fmt.Errorf("fetching transaction %s: %w", event.Data.TransactionID, err)
		}
		why := event.Type + "; " + transaction.ID + " is " + transaction.Status
		if transaction.FailureReason != "" {
			why += ": " + transaction.FailureReason
		}
		report(s.orders.ApplyTransaction(transaction), why)
		return nil
	}
	report(s.orders.ApplySession(event.Data), event.Type)
	return nil
}

// docs:handler:end

// unreadBody is the answer to a body that could not be read: too big, or cut off.
func unreadBody(err error) webhook.Problem {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return webhook.Problem{Type: "about:blank", Title: "Payload Too Large", Status: 413, Detail: "A delivery is at most 1 MB."}
	}
	return webhook.Problem{Type: "about:blank", Title: "Bad Request", Status: 400, Detail: "The body was cut off: " + err.Error()}
}

// refuse answers a delivery that is not the service's (forged, changed, stale) or not an event,
// with the problem that says why, and logs it once.
func refuse(w http.ResponseWriter, err error) {
	var refused *webhook.VerificationError
	if !errors.As(err, &refused) {
		refused = &webhook.VerificationError{Reason: "invalid_payload", Message: err.Error()}
	}
	log.Printf("refused a delivery: %v", refused)
	writeProblem(w, refused.Problem())
}

func report(change *Change, why string) {
	if change != nil {
		fmt.Printf("order %s: %s -> %s (%s)\n", change.OrderID, change.From, change.To, why)
	}
}

// processedEvents are the ids of the events processed; in a real shop, a table keyed by the event id.
type processedEvents struct {
	mu  sync.Mutex
	ids map[string]bool
}

func (p *processedEvents) has(id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ids[id]
}

func (p *processedEvents) add(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ids[id] = true
}
