// VerdictsCommand
