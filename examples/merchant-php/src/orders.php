<?php
// The merchant's orders, keyed by order_id, in a file (see json_file.php): what a shop keeps in its
// database. An order's status is worked out from what is known of its payment (the transactions as
// last fetched, the session's state), never stepped by each event: so an event that comes late,
// twice or out of order cannot move an order backwards.
declare(strict_types=1);

require_once __DIR__ . '/json_file.php';

final class Orders
{
    private readonly JsonFile $file;

    public function __construct(string $stateDir)
    {
        $this->file = new JsonFile("{$stateDir}/orders.json");
    }

    public function list(): array
    {
        return array_map(fn (array $order) => self::shown($order), array_values($this->file->read()));
    }

    public function get(string $orderId): ?array
    {
        $order = $this->file->read()[$orderId] ?? null;
        return $order === null ? null : self::shown($order);
    }

    /** The order as GET /orders shows it: its transactions an object, also when there are none (PHP would write []). */
    private static function shown(array $order): array
    {
        $order['transactions'] = (object) $order['transactions'];
        return $order;
    }

    /** From a transaction fetched from the service, the truth about the payment: returns the change, if any, in words. */
    public function applyTransaction(array $transaction): ?string
    {
        return $this->file->change(function (array &$orders) use ($transaction): ?string {
            $orderId = self::find($orders, $transaction);
            if ($orderId === null) {
                return null;
            }
            $orders[$orderId]['transactions'][$transaction['id']] = $transaction['status'];
            if (isset($transaction['failure_reason'])) {
                $orders[$orderId]['failure_reason'] = $transaction['failure_reason'];
            }
            return self::update($orders[$orderId]);
        });
    }

    /** From a session event (created, completed or expired): returns the change, if any, in words. */
    public function applySession(array $data, string $status): ?string
    {
        return $this->file->change(function (array &$orders) use ($data, $status): ?string {
            $orderId = self::find($orders, $data);
            if ($orderId === null) {
                return null;
            }
            // A session only moves on from created; a late session-created changes nothing.
            if ($status !== 'created') {
                $orders[$orderId]['session_status'] = $status;
            }
            return self::update($orders[$orderId]);
        });
    }

    /** The order a payment belongs to; one is opened for a payment started elsewhere (./checkout is another process). */
    private static function find(array &$orders, array $ref): ?string
    {
        $orderId = $ref['order_id'] ?? null;
        if ($orderId === null) {
            foreach ($orders as $id => $order) {
                if ($order['session_id'] === $ref['session_id']) {
                    return (string) $id;
                }
            }
            return null;
        }
        $orders[$orderId] ??= [
            'order_id' => $orderId,
            'session_id' => $ref['session_id'],
            'amount' => $ref['amount'],
            'currency' => $ref['currency'],
            'status' => 'pending',
            'session_status' => 'created',
            'transactions' => [],
            'history' => ['pending'],
        ];
        return $orderId;
    }

    private static function update(array &$order): ?string
    {
        $before = $order['status'];
        $seen = array_values($order['transactions']);
        $order['status'] = match (true) {
            in_array('settled', $seen, true) => 'settled',
            in_array('completed', $seen, true) || $order['session_status'] === 'completed' => 'paid',
            $order['session_status'] === 'expired' => 'expired',
            in_array('failed', $seen, true) => 'failed',
            default => 'pending',
        };
        if ($order['status'] === $before) {
            return null;
        }
        $order['history'][] = $order['status'];
        return "order {$order['order_id']}: {$before} -> {$order['status']}";
    }
}
