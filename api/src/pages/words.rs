//! Rules in words: what each rule field of the engine's configuration decides, for readers.

/// What a rule field decides, in a few words (the field name itself when unknown).
pub fn rule_in_words(field: &str) -> &str {
    match field {
        "holes" => "How many holes each row has.",
        "first_player" => "Who moves first.",
        "layout" => "How the stones are laid out at the start.",
        "sowing.relay" => "What happens when the last stone falls into an occupied hole.",
        "sowing.lap_origin" => "Whether a long lap sows the hole it was lifted from.",
        "sowing.endless" => "What ends a sowing that would never stop.",
        "sowing.after_empty" => "Whether a turn must start from a hole after an empty one.",
        "capture.back" => "Whether a capture also takes the back-row hole behind the front one.",
        "capture.resow" => "Whether captured stones leave the board or are sown again.",
        "capture.into_hand" => "Whether captured stones are kept in the capturer's hand.",
        "singles.restricted" => "Whether a move may start from a hole with a single stone.",
        "singles.into_empty" => "Whether single stones may move only into empty holes.",
        "singles.capture" => "Whether a single stone moved into an empty front hole captures.",
        "heads.holes" => "Which back-row holes are heads (misoro).",
        "heads.nominate" => "Whether the players nominate their heads.",
        "heads.on_landing" => "What a last stone landing in an occupied head may do.",
        "heads.immune_to_takes" => "Whether heads are safe from additional takes.",
        "takes.schedule" => "How many additional takes follow a capture.",
        "takes.then" => "What the additional takes become after the scheduled ones.",
        "takes.optional" => "Whether the additional takes may be declined.",
        "takes.shared" => "Whether takes owed pass to the next turn, whoever's it is.",
        "opening" => "A stylised or forced opening.",
        "end.no_moves" => "What a player who cannot move does, or whether he loses.",
        "end.mutual_pass" => "What happens when both players pass in turn.",
        "end.turn_limit" => "After how many turns the game is called a draw.",
        "end.move_limit" => "After how many moves the game is called a draw.",
        "end.limits" => "Where the turn and move limits cut a game.",
        "board" => "The board the game is played on.",
        "stones" => "How many stones each player starts with in hand.",
        "placement.cancel" => "Whether a stone placed on the opponent's cancels both.",
        "placement.until" => "When the placing of stones ends.",
        "movement.step" => "How a stone moves once all are placed.",
        "movement.flying_at" => "When a player's stones may fly to any empty point.",
        "lines.effect" => "What making a line of three does: take a stone, or win.",
        "lines.per_move" => "One take per move, or one per line made.",
        "lines.flying_takes" => "Whether a line made by a flying move takes.",
        "take.protect_lines" => "Whether stones in lines are safe from being taken.",
        "end.lose_at" => "With how few stones a player has lost.",
        "end.full_board" => "What happens when the board is full.",
        "end.repetition" => "After how many repetitions of a position the game is a draw.",
        "players" => "How many players take part, turns passing to the right.",
        "skill" => "Each player's chance that a move of a throw is clean.",
        "first_skill" => "The first player's chance of a clean move, when it differs.",
        "start" => "How many stones the first player puts into the hole to begin.",
        "reserve" => "How many stones are kept aside as the reserve.",
        "refill" => "How many stones are drawn from the reserve when the hole is empty.",
        "turn_limit" => "After how many turns the game is a draw.",
        other => other,
    }
}

/// The name of a citation's kind for readers.
pub fn kind_label(kind: &str) -> &'static str {
    match kind {
        "evidence" => "quoted",
        "reconstructed" => "reconstructed",
        "assumed" => "assumed",
        "not_applicable" => "not applicable",
        _ => "uncited",
    }
}
