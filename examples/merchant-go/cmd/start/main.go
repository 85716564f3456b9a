// The merchant's webhook endpoint: registers http://127.0.0.1:PORT/webhooks/payin with the
// service, verifies each delivery with the secret the registration answers, and keeps the orders
// (GET /orders) up to date.
//
// Run it: ./start (PAYIN_BASE_URL, default http://127.0.0.1:4010; PAYIN_TOKEN, default
// example-merchant; PORT, default 3000).
package main

import (
	"context"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"time"

	"payin-merchant/payin"
	"payin-merchant/shop"
)

func main() {
	log.SetFlags(0)
	baseURL := setting("PAYIN_BASE_URL", "http://127.0.0.1:4010")
	token := setting("PAYIN_TOKEN", "example-merchant")

	// Listening comes first: the registration needs the URL, whose port PORT=0 picks. A delivery
	// that comes before the secret waits in the listen queue until Serve below.
	listener, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", setting("PORT", "3000")))
	if err != nil {
		log.Fatalf("cannot listen: %v", err)
	}
	url := "http://" + listener.Addr().String()

	client := payin.NewClient(baseURL, token)
	// Registering again replaces the URL and keeps the secret.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	registration, err := client.RegisterWebhook(ctx, url+"/webhooks/payin")
	cancel()
	if err != nil {
		log.Fatalf("cannot register the webhook URL at %s: %v", baseURL, err)
	}

	fmt.Printf("merchant listening on %s: webhooks at %s/webhooks/payin, orders at %s/orders\n", url, url, url)
	// As `stripe listen` does: the secret of a test account, so that the endpoint can be checked.
	// A shop that takes real payments keeps its secret out of its logs.
	fmt.Printf("check the endpoint: npx payin-conformance receiver --url %s/webhooks/payin --secret %s --base-url %s --token %s\n",
		url, registration.SigningSecret, baseURL, token)

	server := &http.Server{Handler: shop.New(client, []string{registration.SigningSecret}), ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(server.Serve(listener))
}

func setting(name, fallback string) string {
	if value := os.Getenv(name); value != "" {
		return value
	}
	return fallback
}
