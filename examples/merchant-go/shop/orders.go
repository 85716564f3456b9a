// Package shop is the merchant: its orders and the webhook endpoint that keeps them up to date.
package shop

import (
	"sync"

	"payin-merchant/payin"
	"payin-merchant/webhook"
)

// Order is what the shop keeps of an order; in a real shop, a row of its database. Its status
// is worked out from what is known of its payment (the transactions as last fetched, the
// session's state), never stepped by each event: an event that comes late, twice or out of
// order cannot move an order backwards.
type Order struct {
	OrderID       string            `json:"order_id"`
	SessionID     string            `json:"session_id"`
	Amount        float64           `json:"amount"`
	Currency      string            `json:"currency"`
	Status        string            `json:"status"`         // pending, paid, failed, expired or settled
	SessionStatus string            `json:"session_status"` // as its last session event said
	Transactions  map[string]string `json:"transactions"`   // every transaction seen, by id, with its status as last fetched
	FailureReason string            `json:"failure_reason,omitempty"`
	History       []string          `json:"history"` // the statuses it has had, oldest first
}

// Change is an order's move from one status to another.
type Change struct {
	OrderID, From, To string
}

// payment is what names an order in a session event or a transaction.
type payment struct {
	OrderID, SessionID string
	Amount             float64
	Currency           string
}

// Orders are the shop's orders in memory, safe for the concurrent deliveries.
type Orders struct {
	mu     sync.Mutex
	byID   map[string]*Order
	listed []string // order ids, oldest first
}

func NewOrders() *Orders { return &Orders{byID: map[string]*Order{}} }

// List is a copy of every order, oldest first.
func (o *Orders) List() []Order {
	o.mu.Lock()
	defer o.mu.Unlock()
	list := make([]Order, 0, len(o.listed))
	for _, id := range o.listed {
		order := *o.byID[id]
		order.Transactions = make(map[string]string, len(o.byID[id].Transactions))
		for txn, status := range o.byID[id].Transactions {
			order.Transactions[txn] = status
		}
		order.History = append([]string(nil), order.History...)
		list = append(list, order)
	}
	return list
}

// ApplyTransaction updates an order from a transaction fetched from the service.
func (o *Orders) ApplyTransaction(t payin.Transaction) *Change {
	o.mu.Lock()
	defer o.mu.Unlock()
	order := o.find(payment{OrderID: t.OrderID, SessionID: t.SessionID, Amount: t.Amount, Currency: t.Currency})
	if order == nil {
		return nil
	}
	order.Transactions[t.ID] = t.Status
	if t.FailureReason != "" {
		order.FailureReason = t.FailureReason
	}
	return update(order)
}

// ApplySession updates an order from a session event (created, completed or expired).
func (o *Orders) ApplySession(data webhook.EventData) *Change {
	o.mu.Lock()
	defer o.mu.Unlock()
	order := o.find(payment{OrderID: data.OrderID, SessionID: data.SessionID, Amount: data.Amount, Currency: data.Currency})
	if order == nil {
		return nil
	}
	// A session only moves on from created: a late session-created changes nothing.
	if data.Status != "created" {
		order.SessionStatus = data.Status
	}
	return update(order)
}

// find is the order a payment belongs to. An order is opened for a payment the shop has not
// seen yet: ./checkout is another process, which tells the endpoint nothing.
func (o *Orders) find(p payment) *Order {
	if p.OrderID == "" {
		for _, order := range o.byID {
			if order.SessionID == p.SessionID {
				return order
			}
		}
		return nil
	}
	if order, ok := o.byID[p.OrderID]; ok {
		return order
	}
	order := &Order{
		OrderID: p.OrderID, SessionID: p.SessionID, Amount: p.Amount, Currency: p.Currency,
		Status: "pending", SessionStatus: "created", Transactions: map[string]string{}, History: []string{"pending"},
	}
	o.byID[p.OrderID] = order
	o.listed = append(o.listed, p.OrderID)
	return order
}

// update works the order's status out again from what is known, and returns the change, if any.
func update(order *Order) *Change {
	seen := map[string]bool{}
	for _, status := range order.Transactions {
		seen[status] = true
	}
	from := order.Status
	switch {
	case seen["settled"]:
		order.Status = "settled"
	case seen["completed"] || order.SessionStatus == "completed":
		order.Status = "paid"
	case order.SessionStatus == "expired":
		order.Status = "expired"
	case seen["failed"]:
		order.Status = "failed"
	default:
		order.Status = "pending"
	}
	if order.Status == from {
		return nil
	}
	order.History = append(order.History, order.Status)
	return &Change{OrderID: order.OrderID, From: from, To: order.Status}
}
