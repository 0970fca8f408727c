-- Waiters on a job (`?wait=`) are woken by a notification when its status changes, whoever
-- changed it (a worker in another process, a cancel), instead of each polling the table.
CREATE FUNCTION notify_job_status() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('tsoro_job_status', NEW.id::text);
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER simulation_jobs_status_notify
    AFTER UPDATE OF status ON simulation_jobs
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
    EXECUTE FUNCTION notify_job_status();
