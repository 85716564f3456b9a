package shop

import (
	"encoding/json"
	"net/http"

	"payin-merchant/payin"
	"payin-merchant/webhook"
)

// Shop is the merchant's HTTP server: the webhook endpoint and its orders.
type Shop struct {
	payin     *payin.Client
	secrets   []string
	orders    *Orders
	processed processedEvents
}

// New is the shop, verifying deliveries with secrets (any of them: a secret in rotation) and
// fetching transactions with client.
func New(client *payin.Client, secrets []string) *Shop {
	return &Shop{payin: client, secrets: secrets, orders: NewOrders(), processed: processedEvents{ids: map[string]bool{}}}
}

// ServeHTTP routes each request; net/http serves each on its own goroutine, so a slow or
// failing one holds up no other.
func (s *Shop) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/webhooks/payin":
		s.handleWebhook(w, r)
	case r.Method == http.MethodGet && r.URL.Path == "/orders":
		writeJSON(w, http.StatusOK, s.orders.List())
	case r.Method == http.MethodGet && r.URL.Path == "/thanks":
		// The session's redirect_url: where the customer lands after paying.
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("Thank you! Your payment is being confirmed.\n"))
	default:
		http.NotFound(w, r)
	}
}

func writeJSON(w http.ResponseWriter, status int, value any) {
	body, _ := json.MarshalIndent(value, "", "  ")
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
}

func writeProblem(w http.ResponseWriter, problem webhook.Problem) {
	body, _ := json.Marshal(problem)
	w.Header().Set("Content-Type", "application/problem+json")
	w.WriteHeader(problem.Status)
	_, _ = w.Write(body)
}
