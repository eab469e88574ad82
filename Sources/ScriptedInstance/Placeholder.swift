// ScriptedInstance
