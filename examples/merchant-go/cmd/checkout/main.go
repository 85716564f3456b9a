// Checkout: the customer as a PAYIN counterparty, a payment session for a new order, and the
// payment link to send the customer to. The order is pending until its events say otherwise.
//
// Run it: ./checkout (PAYIN_BASE_URL, default http://127.0.0.1:4010; PAYIN_TOKEN, the same as
// ./start's, default example-merchant; MERCHANT_URL, default http://127.0.0.1:3000).
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"time"

	"payin-merchant/payin"
)

func main() {
	log.SetFlags(0)
	client := payin.NewClient(setting("PAYIN_BASE_URL", "http://127.0.0.1:4010"), setting("PAYIN_TOKEN", "example-merchant"))
	merchantURL := setting("MERCHANT_URL", "http://127.0.0.1:3000")
	orderID := fmt.Sprintf("ORD-%d", time.Now().UnixMilli())
	ctx := context.Background()

	// docs:checkout:start
	// The customer. The client retries a lost connection, a 429 and a 503, with one
	// Idempotency-Key on all the attempts: a create whose answer was lost is not made twice.
	customer, err := client.CreateCounterparty(ctx, payin.NewCounterparty{
		Type: "INDIVIDUAL", PaymentRail: "PAYIN", FirstName: "Lucía", LastName: "García",
		Email: "lucia@example.com", PhoneNumber: "+34612345678",
	})
	// A returning customer (the same email and phone number) is answered 409 with the existing id.
	var problem *payin.Problem
	if errors.As(err, &problem) && problem.Code == "counterparty_exists" {
		customer.ID, err = problem.ExistingID, nil
	}
	if err != nil {
		log.Fatalf("create counterparty: %v", err)
	}

	session, err := client.CreatePaymentSession(ctx, payin.NewPaymentSession{
		Amount: 49.99, Currency: "EUR", CounterpartyID: customer.ID, OrderID: orderID,
		SourceURL: merchantURL, RedirectURL: merchantURL + "/thanks",
	})
	if err != nil {
		log.Fatalf("create payment session: %v", err)
	}
	fmt.Printf("order %s: pending, %v %s, session %s\n", session.OrderID, session.Amount, session.Currency, session.ID)
	fmt.Printf("payment link: %s\n", session.PaymentLink) // where the shop sends the customer
	// docs:checkout:end
}

func setting(name, fallback string) string {
	if value := os.Getenv(name); value != "" {
		return value
	}
	return fallback
}
