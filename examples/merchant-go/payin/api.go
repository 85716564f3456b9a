package payin

import (
	"context"
	"net/url"
)

// NewCounterparty is the customer to collect from (a PAYIN counterparty).
type NewCounterparty struct {
	Type        string `json:"type"`         // INDIVIDUAL
	PaymentRail string `json:"payment_rail"` // PAYIN
	FirstName   string `json:"first_name"`
	LastName    string `json:"last_name"`
	Email       string `json:"email"`
	PhoneNumber string `json:"phone_number"`
}

// Counterparty is a created customer.
type Counterparty struct {
	ID string `json:"id"`
}

// NewPaymentSession is what to charge a counterparty. The URLs are https:// (the sandbox also
// takes loopback http://).
type NewPaymentSession struct {
	Amount         float64 `json:"amount"` // in major units: 49.99 EUR
	Currency       string  `json:"currency"`
	CounterpartyID string  `json:"counterparty_id"`
	OrderID        string  `json:"order_id,omitempty"`
	SourceURL      string  `json:"source_url,omitempty"`
	RedirectURL    string  `json:"redirect_url"`
}

// PaymentSession is a created session, with the link to send the customer to (valid one hour).
type PaymentSession struct {
	ID          string  `json:"id"`
	Status      string  `json:"status"`
	PaymentLink string  `json:"payment_link"`
	Amount      float64 `json:"amount"`
	Currency    string  `json:"currency"`
	OrderID     string  `json:"order_id"`
	ExpiresAt   string  `json:"expires_at"`
}

// Transaction is the truth about a payment: fetch it whenever a transaction event arrives.
type Transaction struct {
	ID            string  `json:"id"`
	Status        string  `json:"status"` // created, completed, settled or failed
	SessionID     string  `json:"session_id"`
	OrderID       string  `json:"order_id"`
	Amount        float64 `json:"amount"`
	Currency      string  `json:"currency"`
	FailureReason string  `json:"failure_reason"`
}

// WebhookRegistration is the registered URL and the secret that signs every delivery to it.
type WebhookRegistration struct {
	URL           string `json:"url"`
	SigningSecret string `json:"signing_secret"` // whsec_…
}

// CreateCounterparty creates a customer. A customer with the same email and phone number exists
// already: a *Problem with Code counterparty_exists and its ExistingID.
func (c *Client) CreateCounterparty(ctx context.Context, counterparty NewCounterparty) (Counterparty, error) {
	var created Counterparty
	return created, c.call(ctx, "POST", "/api/v1/send/counterparties/", counterparty, &created)
}

// CreatePaymentSession creates a session for a counterparty, with its payment link.
func (c *Client) CreatePaymentSession(ctx context.Context, session NewPaymentSession) (PaymentSession, error) {
	var created PaymentSession
	return created, c.call(ctx, "POST", "/api/v1/earn/payment-sessions/", session, &created)
}

// GetTransaction fetches a transaction by its id.
func (c *Client) GetTransaction(ctx context.Context, transactionID string) (Transaction, error) {
	var transaction Transaction
	return transaction, c.call(ctx, "GET", "/api/v1/earn/transactions/"+url.PathEscape(transactionID)+"/", nil, &transaction)
}

// RegisterWebhook sets the URL the account's events go to. The secret comes with the first
// registration and stays the same when the URL is replaced.
func (c *Client) RegisterWebhook(ctx context.Context, webhookURL string) (WebhookRegistration, error) {
	var registration WebhookRegistration
	return registration, c.call(ctx, "POST", "/webhooks", map[string]string{"url": webhookURL}, &registration)
}
