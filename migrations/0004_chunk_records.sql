-- A chunk keeps its games' records as one block of CSV lines (exactly the lines `tsoro
-- simulate --csv` writes for those games, in game order) and the exact aggregates folded
-- from them. One row per chunk instead of one per game: storing and exporting a million
-- games then costs a few dozen rows, which lets the service keep pace with the engine.

ALTER TABLE simulation_chunks
    ADD COLUMN records bytea,     -- CSV lines, no header; set when the chunk is done
    ADD COLUMN summary jsonb;     -- the chunk's aggregates (tsoro_engine::stats::Summary)

-- Stored as is: the blocks are written once and read whole, compression would only cost time.
ALTER TABLE simulation_chunks ALTER COLUMN records SET STORAGE EXTERNAL;

-- Carry over the records of jobs stored one row per game. Their chunk aggregates are left
-- empty: a job still running folds them from these lines when it finishes.
UPDATE simulation_chunks c
SET records = convert_to(g.lines, 'UTF8')
FROM (
    SELECT c2.job_id, c2.idx,
           string_agg(
               concat_ws(',', g.game, g.seed, g.agent_a, g.agent_b, g.agent_a_index, g.first,
                         g.winner, g.reason, g.turns, g.actions, g.moves, g.captures_a,
                         g.captures_b, g.stones_captured_a, g.stones_captured_b,
                         g.stones_left_a, g.stones_left_b, g.longest_relay,
                         CASE WHEN g.mean_branching = trunc(g.mean_branching)
                              THEN g.mean_branching::bigint::text || '.0'
                              ELSE g.mean_branching::text END,
                         g.legal_sum, g.multi_decisions) || E'\n',
               '' ORDER BY g.game) AS lines
    FROM simulation_chunks c2
    JOIN simulation_games g
      ON g.job_id = c2.job_id AND g.game >= c2.first_game AND g.game < c2.end_game
    WHERE c2.status = 'done'
    GROUP BY c2.job_id, c2.idx
) g
WHERE c.job_id = g.job_id AND c.idx = g.idx;

DROP TABLE simulation_games;
