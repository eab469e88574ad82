// VerdictsUI
