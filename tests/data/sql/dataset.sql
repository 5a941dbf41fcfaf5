-- The test schema and data, portable between MariaDB and SQLite.
-- Columns named internal_note and ssn exist in the database but are never allowlisted.
CREATE TABLE orders (
    id INTEGER PRIMARY KEY,
    status VARCHAR(20) NOT NULL,
    amount DECIMAL(10, 2) NOT NULL,
    created_at DATETIME NOT NULL,
    user_id INTEGER NOT NULL,
    internal_note VARCHAR(100)
);
CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    name VARCHAR(50) NOT NULL,
    email VARCHAR(100) NOT NULL,
    password_hash VARCHAR(100),
    api_token VARCHAR(100),
    ssn VARCHAR(20)
);
CREATE TABLE payments_log (
    id INTEGER PRIMARY KEY,
    order_id INTEGER NOT NULL,
    service VARCHAR(30) NOT NULL,
    outcome VARCHAR(20) NOT NULL,
    latency_ms INTEGER NOT NULL,
    created_at DATETIME NOT NULL
);
INSERT INTO users (id, name, email, password_hash, api_token, ssn) VALUES
    (1, 'alice', 'alice@example.com', '$2b$12$KIXQJ3mNq8v7Yt2pW9zLuO1abcdefghijklmnopqrstuvwxyz012', 'tok_live_a1b2c3d4e5f6', '111-22-3333'),
    (2, 'bob', 'bob@example.com', '$2b$12$ZZXQJ3mNq8v7Yt2pW9zLuO1abcdefghijklmnopqrstuvwxyz999', NULL, '444-55-6666'),
    (3, 'carol', 'carol@example.com', NULL, 'tok_live_c3c3c3c3c3c3', '777-88-9999');
INSERT INTO orders (id, status, amount, created_at, user_id, internal_note) VALUES
    (1, 'paid', 12.5, '2024-05-01 09:58:00', 1, 'vip'),
    (2, 'failed', 99.99, '2024-05-01 10:02:00', 1, 'retry'),
    (3, 'failed', 5.25, '2024-05-01 10:07:00', 2, NULL),
    (4, 'timeout', 42.75, '2024-05-01 10:15:00', 3, NULL),
    (5, 'paid', 7.5, '2024-05-01 10:31:00', 2, 'gift'),
    (6, 'failed', 150.25, '2024-05-01 10:44:00', 3, NULL),
    (7, 'refunded', 19.95, '2024-05-01 11:05:00', 1, NULL);
INSERT INTO payments_log (id, order_id, service, outcome, latency_ms, created_at) VALUES
    (1, 1, 'gateway', 'ok', 120, '2024-05-01 09:58:01'),
    (2, 2, 'gateway', 'declined', 3400, '2024-05-01 10:02:03'),
    (3, 3, 'gateway', 'declined', 2950, '2024-05-01 10:07:02'),
    (4, 4, 'gateway', 'timeout', 30000, '2024-05-01 10:15:30'),
    (5, 5, 'gateway', 'ok', 140, '2024-05-01 10:31:01'),
    (6, 6, 'fraud-check', 'timeout', 30000, '2024-05-01 10:44:30'),
    (7, 7, 'gateway', 'ok', 95, '2024-05-01 11:05:01');
-- Filled by the fixtures with a few thousand rows: the slow-query tests join it with itself.
CREATE TABLE ledger (
    id INTEGER PRIMARY KEY,
    bucket INTEGER NOT NULL
);
