<?php
// A JSON document in a file, read and changed under flock. Each request of PHP's built-in server is
// a fresh run of the script, on one of several worker processes: what must outlive a request (the
// orders, the events handled) lives in a file, and a change is read, made and written under one
// exclusive lock, so that two deliveries about the same order cannot lose each other's change.
declare(strict_types=1);

final class JsonFile
{
    public function __construct(private readonly string $path)
    {
    }

    public function read(): array
    {
        $handle = fopen($this->path, 'c+');
        flock($handle, LOCK_SH);
        try {
            return self::decode(stream_get_contents($handle));
        } finally {
            flock($handle, LOCK_UN);
            fclose($handle);
        }
    }

    /** Calls $change with the document (by reference), writes what it left, and returns what it returned. */
    public function change(callable $change): mixed
    {
        $handle = fopen($this->path, 'c+');
        flock($handle, LOCK_EX);
        try {
            $document = self::decode(stream_get_contents($handle));
            $result = $change($document);
            ftruncate($handle, 0);
            rewind($handle);
            fwrite($handle, json_encode($document, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE));
            fflush($handle);
            return $result;
        } finally {
            flock($handle, LOCK_UN);
            fclose($handle);
        }
    }

    private static function decode(string $text): array
    {
        return $text === '' ? [] : json_decode($text, true, 512, JSON_THROW_ON_ERROR);
    }
}
