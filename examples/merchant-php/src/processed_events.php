<?php
// The ids of the events handled, so that a redelivery is answered without being handled twice. In a
// file (see json_file.php); in a real shop, a table keyed by the event id (a unique key), written
// with the order's change.
declare(strict_types=1);

require_once __DIR__ . '/json_file.php';

final class ProcessedEvents
{
    private readonly JsonFile $file;

    public function __construct(string $stateDir)
    {
        $this->file = new JsonFile("{$stateDir}/processed-events.json");
    }

    public function has(string $eventId): bool
    {
        return isset($this->file->read()[$eventId]);
    }

    public function add(string $eventId): void
    {
        $this->file->change(function (array &$ids) use ($eventId): void {
            $ids[$eventId] = true;
        });
    }
}
